package table

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// shortUnits abbreviates the long units the tables declare, for a header.
var shortUnits = map[string]string{
	"warp instructions per transaction": "warp inst/txn",
	"warp instructions":                 "warp inst",
	"transactions":                      "txn",
}

// ShortUnit is unit as a header shows it: "warp inst/txn" for "warp
// instructions per transaction", other units as they are.
func ShortUnit(unit string) string {
	if s, ok := shortUnits[unit]; ok {
		return s
	}
	return unit
}

// unitSlug is how a column name spells unit at its end: "us" for "µs",
// "GB_s" for "GB/s", "%" for "%".
func unitSlug(unit string) string {
	return strings.NewReplacer("µ", "u", "/", "_", " ", "_").Replace(unit)
}

// splitUnit splits c's name into the quantity and the unit a header shows
// for it: "measured_us" (µs) is "measured" and "µs", "cv_%" is "cv" and
// "%", "GTXN_s" (GTXN/s) is "" and "GTXN/s", "total" (x) is "total" and
// "x"; a name that holds its unit elsewhere ("GB/s (mem)", "warp_GIPS"
// for warp GIPS) keeps it and shows no unit apart; a column without a unit
// is its name and "".
func (c Column) splitUnit() (name, unit string) {
	if c.Unit == "" {
		return c.Name, ""
	}
	spaced := strings.ReplaceAll(c.Name, "_", " ")
	for _, u := range []string{c.Unit, ShortUnit(c.Unit)} {
		slug := unitSlug(u)
		for _, end := range []string{slug, u, strings.ReplaceAll(u, " ", "_")} {
			switch {
			case c.Name == end:
				return "", c.Unit
			case strings.HasSuffix(c.Name, "_"+end), strings.HasSuffix(c.Name, " "+end):
				return c.Name[:len(c.Name)-len(end)-1], c.Unit
			}
		}
		if containsWord(c.Name, u) || containsWord(spaced, u) {
			return c.Name, ""
		}
	}
	return c.Name, ShortUnit(c.Unit)
}

// Label is the column's header with its unit, as the workbook heads its
// columns: the name, then the unit in parentheses unless the name ends
// with it or holds it ("measured_us", "cv_%", "bandwidth_GB_s", "sssp-la
// ms", "GB/s (mem)"): "total (x)", "frontier (vertices)", "II_L2 (warp
// inst/txn)". The name is kept as it is (CSV heads its columns with it),
// so a script finds the column by either.
func (c Column) Label() string {
	name, unit := c.splitUnit()
	if unit == "" || name != c.Name {
		return c.Name
	}
	return c.Name + " (" + unit + ")"
}

// containsWord says whether s holds word with neither a letter nor a digit
// on either side: "GB/s (mem)" holds "GB/s", "best_fixed" does not hold
// "x".
func containsWord(s, word string) bool {
	isWordRune := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i := 0; ; {
		k := strings.Index(s[i:], word)
		if k < 0 {
			return false
		}
		start, end := i+k, i+k+len(word)
		before, _ := utf8.DecodeLastRuneInString(s[:start])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (start == 0 || !isWordRune(before)) && (end == len(s) || !isWordRune(after)) {
			return true
		}
		i = start + 1
	}
}
