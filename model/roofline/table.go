package roofline

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/internal/table"
)

// ReadNCUFile reads the ncu CSV file at path (ReadNCU): its launches and
// the warnings about its rows.
func ReadNCUFile(path string) (launches []Launch, warnings []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	return ReadNCU(f, path)
}

// CeilingsTable is rep's ceilings as a table: source, bandwidth in GB/s,
// 10^9 transactions per second, warp GIPS and ridge point, "-" where a
// field does not apply. It costs one pass over the ceilings.
func (rep *Report) CeilingsTable() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("ceiling"), table.TextCol("source"), table.NumCol("bandwidth_GB/s", "GB/s").OrMissing("-"),
		table.NumCol("GTXN/s", "GTXN/s").OrMissing("-"), table.NumCol("warp_GIPS", "warp GIPS").OrMissing("-"),
		table.NumCol("ridge_point", "warp instructions per transaction").OrMissing("-"))
	for _, c := range rep.Ceilings {
		t.Add(c.Ceiling, c.Source, optCell(c.Bandwidth, func(x float64) string { return table.G6(x / 1e9) }),
			optCell(c.GTXNPerS, table.G6), optCell(c.WarpGIPS, table.G6), optCell(c.RidgePoint, func(x float64) string { return fmt.Sprintf("%.2f", x) }))
	}
	return t
}

// LaunchesTable is rep's launches placed on the roofline: id, kernel, time
// in µs, warp instructions, achieved warp GIPS, per memory level used the
// transactions and the instruction intensity II ("-" where a launch lacks
// the level, "+Inf" without transactions), then the bound, the binding
// level, the class and the percentage of the bound achieved. It costs one
// pass over the launches and levels.
func (rep *Report) LaunchesTable() table.Table {
	levels := rep.LevelsUsed()
	// The launch id comes from the ncu file as text. A level's
	// transactions are "-" where a launch lacks the level; its intensity
	// is "-" then too, and "+Inf" without transactions: a number with
	// two placeholders.
	var t table.Table
	t.AddColumns(table.TextCol("id"), table.TextCol("kernel"), table.NumCol("time_us", "µs"),
		table.NumCol("warp_inst", "warp instructions"), table.NumCol("warp_GIPS", "warp GIPS"))
	for _, level := range levels {
		t.AddColumns(table.NumCol(level+"_txn", "transactions").OrMissing("-"),
			table.NumCol("II_"+level, "warp instructions per transaction").OrMissing("-", "+Inf"))
	}
	t.AddColumns(table.NumCol("bound_GIPS", "warp GIPS"), table.TextCol("binding"), table.TextCol("class"), table.NumCol("pct_of_bound", "%"))
	for _, l := range rep.Launches {
		row := []string{l.ID, l.Kernel, table.G6(l.TimeNs / 1e3), Count(l.WarpInstructions), table.G6(l.AchievedGIPS)}
		for _, level := range levels {
			p := l.Level(level)
			if p == nil {
				row = append(row, "-", "-")
				continue
			}
			ii := "+Inf"
			if p.Intensity != nil {
				ii = fmt.Sprintf("%.3f", *p.Intensity)
			}
			row = append(row, Count(p.Transactions), ii)
		}
		t.Add(append(row, table.G6(l.BoundGIPS), l.Binding, l.Class, fmt.Sprintf("%.3g", 100*l.FractionOfBound))...)
	}
	return t
}

// Notes lists rep's warnings about the file, then each launch warning once
// with the launches it applies to ("launches 3, 4: ..."), ordered by the
// first launch (numeric ids) and then by text. It costs O(w log w) for w
// distinct launch warnings.
func (rep *Report) Notes() []string {
	notes := append([]string{}, rep.Warnings...)
	type group struct {
		text string
		ids  []string
	}
	var groups []group
	index := map[string]int{}
	for _, l := range rep.Launches {
		for _, w := range l.Warnings {
			i, ok := index[w]
			if !ok {
				i = len(groups)
				index[w] = i
				groups = append(groups, group{text: w})
			}
			groups[i].ids = append(groups[i].ids, l.ID)
		}
	}
	first := func(g group) int {
		n, err := strconv.Atoi(g.ids[0])
		if err != nil {
			return math.MaxInt
		}
		return n
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := groups[i], groups[j]
		if first(a) != first(b) {
			return first(a) < first(b)
		}
		return a.text < b.text
	})
	for _, g := range groups {
		word := "launch"
		if len(g.ids) > 1 {
			word = "launches"
		}
		notes = append(notes, fmt.Sprintf("%s %s: %s", word, strings.Join(g.ids, ", "), g.text))
	}
	return notes
}

// Count prints a whole count in full ("4856663"), anything else with up to
// 6 significant digits.
func Count(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return table.G6(x)
}

// optCell prints an optional number, "-" when absent.
func optCell(x *float64, format func(float64) string) string {
	if x == nil {
		return "-"
	}
	return format(*x)
}
