package kernels

import (
	"errors"
	"fmt"
	"time"
)

// ErrNegativeLimit is CheckLimits's error for a negative time budget or
// deadline.
var ErrNegativeLimit = errors.New("kernels: a negative time budget or deadline")

// BudgetError is a time budget longer than the deadline: graphs would be
// started that the deadline must stop.
type BudgetError struct{ Budget, Deadline time.Duration }

func (e *BudgetError) Error() string {
	return fmt.Sprintf("kernels: time budget %v exceeds deadline %v", e.Budget, e.Deadline)
}

// CheckLimits checks a sweep's SweepOptions.TimeBudget and Deadline:
// neither negative (ErrNegativeLimit), and the budget no longer than a
// positive deadline (*BudgetError).
func CheckLimits(budget, deadline time.Duration) error {
	switch {
	case budget < 0 || deadline < 0:
		return ErrNegativeLimit
	case deadline > 0 && budget > deadline:
		return &BudgetError{Budget: budget, Deadline: deadline}
	}
	return nil
}
