package table

import (
	"strconv"
	"strings"
)

// The cell formats the commands' tables share. Each costs one float or
// integer formatting.

// G6 is v with up to 6 significant digits ("0.123457", "1.5e+07"): a
// number cell.
func G6(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// OptG6 is G6(*v), or "" for nil (no value).
func OptG6(v *float64) string {
	if v == nil {
		return ""
	}
	return G6(*v)
}

// Int is v in base 10.
func Int(v int64) string { return strconv.FormatInt(v, 10) }

// IntOrDash is n in base 10, "-" for 0 (none).
func IntOrDash(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

// F3 is v with 3 decimals ("1.098").
func F3(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

// Micros is a time of ns nanoseconds in microseconds with 4 significant
// digits ("12.35", "1.235e+04"), as the predict verbs print their times.
func Micros(ns float64) string { return strconv.FormatFloat(ns/1e3, 'g', 4, 64) }

// Times is a ratio as the thesis's tables print it: "3.17x".
func Times(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "x" }

// Percent is a share as a whole percentage: 0.69 is "69%".
func Percent(v float64) string { return strconv.FormatFloat(100*v, 'f', 0, 64) + "%" }

// Percent1 is a share as a percentage with one decimal: 0.078 is "7.8%".
func Percent1(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + "%" }

// OptPercent is a coefficient of variation as a percentage, "2.3%", with
// two significant digits below 1% ("0.045%", "0%"), or "-" for nil.
func OptPercent(v *float64) string {
	switch {
	case v == nil:
		return "-"
	case 100**v < 1:
		return strconv.FormatFloat(100**v, 'g', 2, 64) + "%"
	}
	return strconv.FormatFloat(100**v, 'f', 1, 64) + "%"
}

// ValueCol is NumCol(name, unit) when raw (the cells are plain numbers, as
// in CSV and a report), else a text column of that unit (the cells read as
// a person does: "3.17x", "69%").
func ValueCol(name, unit string, raw bool) Column {
	if raw {
		return NumCol(name, unit)
	}
	return TextUnitCol(name, unit)
}

// Slug turns a title into a file stem: lower-case letters and digits,
// every other run of characters one dash, none at either end.
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}
