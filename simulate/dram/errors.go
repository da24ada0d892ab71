package dram

import "errors"

// ErrGeometry is returned for a configuration with a non-positive count, a
// size that is not a power of two, or an interleave that does not divide
// the row. Constructors wrap it with the offending values; test with
// errors.Is.
var ErrGeometry = errors.New("dram: invalid geometry")
