package table

import (
	"math"
	"strconv"
	"strings"
)

// Round3 returns a decimal number cell rounded to three significant digits
// for reading (0.004231 -> "0.00423", 12.3456 -> "12.3", 1234.5 -> "1235":
// a number of four or more integer digits keeps them all, and one below
// 0.001 is written with an exponent, 4.23e-05). It only shortens: a cell
// with fewer digits ("0.1", "0.20") is returned as it is, as are integers
// and anything that is not a plain number ("3.1x", "NaN"). CSV and XLSX
// keep every digit.
func Round3(s string) string {
	t := strings.TrimSpace(s)
	if !strings.ContainsAny(t, ".eE") {
		return s
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || strings.ContainsAny(t, "xXpP_") {
		return s
	}
	if math.Abs(v) < 1000 {
		v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64) // 99.96 is 100, not 100.0
	}
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0"
	case a >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a < 1e-3:
		if r := strconv.FormatFloat(v, 'e', 2, 64); len(r) < len(t) {
			return r
		}
		return s
	}
	decimals := 2 - int(math.Floor(math.Log10(a)))
	if r := strconv.FormatFloat(v, 'f', max(decimals, 0), 64); len(r) < len(t) {
		return r
	}
	return s
}
