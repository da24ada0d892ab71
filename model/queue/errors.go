package queue

import "errors"

// Errors returned for bad input. Solvers wrap them with the offending center
// or class, so test with errors.Is.
var (
	// ErrEmptyNetwork: a network without centers or a multi-class network
	// without classes.
	ErrEmptyNetwork = errors.New("queue: network has no centers")
	// ErrPopulation: a negative population.
	ErrPopulation = errors.New("queue: negative population")
	// ErrThinkTime: a negative, NaN or infinite think time.
	ErrThinkTime = errors.New("queue: think time is negative or not finite")
	// ErrVisits: a negative, NaN or infinite visit ratio.
	ErrVisits = errors.New("queue: visit ratio is negative or not finite")
	// ErrServiceTime: a negative, NaN or infinite service time, or a
	// load-dependent center without ServiceAt or with ServiceAt(j) <= 0.
	ErrServiceTime = errors.New("queue: service time is negative or not finite")
	// ErrDemand: a negative, NaN or infinite service demand.
	ErrDemand = errors.New("queue: service demand is negative or not finite")
	// ErrKind: a CenterKind that is not one of the declared constants.
	ErrKind = errors.New("queue: unknown center kind")
	// ErrUnsupported: a center kind the chosen solver does not handle
	// (load-dependent centers in bounds, Schweitzer and MultiMVA).
	ErrUnsupported = errors.New("queue: center kind not supported by this solver")
	// ErrNoDemand: jobs that neither think nor visit any center, so the
	// throughput would be infinite.
	ErrNoDemand = errors.New("queue: zero think time and zero demand: throughput is unbounded")
	// ErrMismatch: a multi-class center whose demand count differs from
	// the number of classes.
	ErrMismatch = errors.New("queue: demands per center do not match the number of classes")
	// ErrStateSpace: an exact solution too large to attempt: a multi-class
	// population whose state space prod_c (N_c+1) exceeds the limit (see
	// DefaultMaxStates), or more than MaxLoadDependentCenters
	// load-dependent centers in MVA.
	ErrStateSpace = errors.New("queue: too large for an exact solution")
	// ErrNoConvergence: an iterative solver reached its iteration limit.
	ErrNoConvergence = errors.New("queue: approximate MVA did not converge")
	// ErrOptions: a negative or NaN option value.
	ErrOptions = errors.New("queue: invalid solver option")
	// ErrCurve: a service-time curve with no points, non-increasing or
	// non-positive MLP values, or non-positive or non-finite times.
	ErrCurve = errors.New("queue: invalid service-time curve")
)
