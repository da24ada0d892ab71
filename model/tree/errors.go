package tree

import "errors"

// Errors returned for bad input. Functions wrap them with the offending
// row, feature, node or name, so test with errors.Is.
var (
	// ErrNoData: no rows, no features, or no positive sample weight.
	ErrNoData = errors.New("tree: no training data")
	// ErrShape: rows of different lengths, or X, y, w, classNames and
	// featureNames whose lengths do not agree.
	ErrShape = errors.New("tree: inconsistent data shape")
	// ErrNotFinite: a NaN or infinite feature value. CART compares
	// values; NaN has no place in that order, and an infinite value would
	// give an infinite threshold that JSON cannot hold.
	ErrNotFinite = errors.New("tree: feature value is NaN or infinite")
	// ErrWeight: a negative, NaN or infinite sample weight.
	ErrWeight = errors.New("tree: sample weight is negative or not finite")
	// ErrClass: a class label outside 0..len(classNames)-1.
	ErrClass = errors.New("tree: class label out of range")
	// ErrParams: a negative or NaN parameter.
	ErrParams = errors.New("tree: invalid parameter")
	// ErrFormat: a serialised tree that is not a well-formed tree (wrong
	// version, child indices that do not point forward, a feature or class
	// out of range).
	ErrFormat = errors.New("tree: malformed tree")
	// ErrName: an export name that is not an identifier of the target
	// language.
	ErrName = errors.New("tree: invalid identifier")
	// ErrAttribute: golearn data whose attributes this package cannot use
	// (not exactly one class attribute, or an attribute missing at
	// prediction time).
	ErrAttribute = errors.New("tree: unsupported golearn attributes")
	// ErrNotFitted: a GolearnClassifier used before Fit or Load.
	ErrNotFitted = errors.New("tree: classifier has not been fitted")
)
