package table

import "strconv"

// Micros is a time of ns nanoseconds as a cell in microseconds with 4
// significant digits ("12.35", "1.235e+04"), as the predict verbs print
// their times. It costs one float formatting.
func Micros(ns float64) string { return strconv.FormatFloat(ns/1e3, 'g', 4, 64) }
