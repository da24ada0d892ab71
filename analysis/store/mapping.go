package store

import (
	"errors"
	"fmt"
)

// ErrTimeUnit is NewCSVMapping's error for a time unit other than ns, us,
// ms or s.
var ErrTimeUnit = errors.New("store: not a time unit (want ns, us, ms or s)")

// ErrNoTimeUnit is NewCSVMapping's error when neither the mapping
// (time_ms=COLUMN) nor the unit argument says the time column's unit.
var ErrNoTimeUnit = errors.New("store: the CSV mapping has no time unit")

// TimeUnitConflictError is NewCSVMapping's error when the unit given and
// the mapping's (time_UNIT=COLUMN) differ.
type TimeUnitConflictError struct{ Unit, Mapped string }

func (e *TimeUnitConflictError) Error() string {
	return fmt.Sprintf("store: time unit %s, but the mapping says time_%s", e.Unit, e.Mapped)
}

// NewCSVMapping reads spec (ParseCSVMapping) and completes it: unit, when
// set, is the time column's unit (it must agree with a time_UNIT key),
// platform and algorithm those of every row without such a column. It
// returns ErrTimeUnit, a *TimeUnitConflictError, ErrNoTimeUnit, or a
// ParseCSVMapping or CSVMapping.Check error (ErrMapping). O(len(spec)).
func NewCSVMapping(spec, unit, platform, algorithm string) (CSVMapping, error) {
	m, err := ParseCSVMapping(spec)
	if err != nil {
		return m, err
	}
	switch {
	case unit != "" && !IsTimeUnit(unit):
		return m, ErrTimeUnit
	case unit != "" && m.TimeUnit != "" && m.TimeUnit != unit:
		return m, &TimeUnitConflictError{Unit: unit, Mapped: m.TimeUnit}
	case unit == "" && m.TimeUnit == "":
		return m, ErrNoTimeUnit
	case unit != "":
		m.TimeUnit = unit
	}
	m.PlatformName, m.AlgorithmName = platform, algorithm
	return m, m.Check()
}
