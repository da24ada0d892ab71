package treefit

import (
	"fmt"
	"strconv"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/internal/table"
)

// Table is ds's rows as a table, a row per (graph, root, level): the
// graph, root and level, the features (split.FeatureNames), the label
// (the fastest implementation) and the weight; numbers in Go's shortest
// form; the weight in ns under time weighting. Cost: O(rows × features).
func (ds *Dataset) Table() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("graph"), table.IntCol("root", "vertex"), table.IntCol("level", ""))
	for _, f := range split.FeatureNames {
		t.AddColumns(table.NumCol(f, featureUnits[f]))
	}
	weightUnit := ""
	if ds.Weighting == split.WeightTime {
		weightUnit = "ns"
	}
	t.AddColumns(table.TextCol("label"), table.NumCol("weight", weightUnit))
	for _, r := range ds.Rows {
		cells := []string{r.Graph, strconv.FormatInt(r.Root, 10), strconv.Itoa(r.Level)}
		for _, v := range r.Features {
			cells = append(cells, strconv.FormatFloat(v, 'g', -1, 64))
		}
		t.Add(append(cells, ds.Labels[r.Label], strconv.FormatFloat(r.Weight, 'g', -1, 64))...)
	}
	return t
}

// featureUnits are the units of the features (split.FeatureNames) that
// have one; the degree statistics and the relative sizes have none.
var featureUnits = map[string]string{"vertices": "vertices", "edges": "edges", "frontier": "vertices", "discovered": "vertices"}

// ResultTable is ev's aggregate table, "tree-evaluate": a row per ev.Rows with
// total, avg, the shares within 2x and beyond 5x and 20x, and the worst
// ratio to the per-level optimum. When raw (a report) the cells are plain
// numbers, else text ("1.23x", "69%"). Cost: O(rows).
func (ev *Evaluation) ResultTable(raw bool) table.Table {
	s, n := ev.Set.Split, len(ev.Table.Inputs)
	t := table.Table{Name: "tree-evaluate",
		Title: fmt.Sprintf("Held-out inputs of the %s split (%d): the tree's Mix-and-Match against the per-level optimum (seed 004 table 7.1)", s, n)}
	t.AddColumns(table.TextCol("name"), table.ValueCol("total", "x", raw), table.ValueCol("avg", "x", raw), table.ValueCol("1-2x", "", raw),
		table.ValueCol(">5x", "", raw), table.ValueCol(">20x", "", raw), table.ValueCol("worst", "x", raw))
	pct := func(v float64) string { return strconv.FormatFloat(100*v, 'f', 0, 64) + "%" }
	for _, r := range ev.Rows {
		if raw {
			t.Add(r.Name, table.G6(r.Total), table.G6(r.Avg), table.G6(r.Within2x), table.G6(r.Over5x), table.G6(r.Over20x), table.G6(r.Worst))
			continue
		}
		t.Add(r.Name, fmt.Sprintf("%.2fx", r.Total), fmt.Sprintf("%.2fx", r.Avg), pct(r.Within2x), pct(r.Over5x), pct(r.Over20x), fmt.Sprintf("%.2fx", r.Worst))
	}
	return t
}

// ImportanceTable is imps as a table: feature and importance (4
// decimals), in the order given. Cost: O(features).
func ImportanceTable(imps []Importance) table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("feature"), table.NumCol("importance", ""))
	for _, im := range imps {
		t.Add(im.Feature, strconv.FormatFloat(im.Importance, 'f', 4, 64))
	}
	return t
}

// ModelsTable is the stored trees as a table: id, kind, split, features,
// the runs linked for training and for validation, and when it was
// created. Cost: O(models).
func ModelsTable(list []ModelSummary) table.Table {
	var t table.Table
	t.AddColumns(table.IntCol("id", ""), table.TextCol("kind"), table.TextCol("split"), table.IntCol("features", ""), table.IntCol("train runs", ""),
		table.IntCol("validation runs", ""), table.TextCol("created"))
	for _, m := range list {
		t.Add(strconv.FormatInt(m.ID, 10), m.Kind, m.Split, strconv.Itoa(m.Features), strconv.Itoa(m.TrainRuns),
			strconv.Itoa(m.ValidationRuns), m.CreatedAt)
	}
	return t
}

// StudyTable is the rows of a study (Study.Rows) as a table, "tree-study":
// the settings (fraction and seed "-" where a split has none; with mean
// the number of seeds instead of the seed, and the range of total), then
// inputs, leaves, accuracy, total, avg, the best non-switching total and
// the worst ratio. When plain (CSV, a report) the numbers are plain, 6
// significant digits, and the range two columns; else fixed decimals with
// "x" on ratios and the range one "min-max" cell. Cost: O(rows).
func StudyTable(rows []Row, mean, plain bool) table.Table {
	t := table.Table{Name: "tree-study", Title: "Held-out Mix-and-Match of trees over a grid of training settings (seed 004 table 8.1)"}
	seedCol := table.IntCol("seed", "").OrMissing("-")
	if mean {
		seedCol = table.IntCol("seeds", "")
	}
	t.AddColumns(table.TextCol("split"), table.NumCol("fraction", "").OrMissing("-"), table.IntCol("max-depth", ""), table.IntCol("min-leaf", ""),
		table.TextCol("weight"), seedCol, table.ValueCol("inputs", "", plain), table.ValueCol("leaves", "", plain), table.ValueCol("accuracy", "", plain), table.ValueCol("total", "x", plain))
	switch {
	case mean && plain:
		t.AddColumns(table.NumCol("total-min", "x"), table.NumCol("total-max", "x"))
	case mean:
		t.AddColumns(table.TextCol("total-range"))
	}
	t.AddColumns(table.ValueCol("avg", "x", plain), table.ValueCol("best-non-switching", "x", plain), table.ValueCol("worst", "x", plain))
	if mean {
		t.Title += "; total, avg and worst are means over the seeds, total-min and total-max the range of total"
	}
	num := func(v float64, prec int, suffix string) string {
		if plain {
			return strconv.FormatFloat(v, 'g', 6, 64)
		}
		return strconv.FormatFloat(v, 'f', prec, 64) + suffix
	}
	for _, j := range rows {
		fraction, seed := "-", "-"
		if j.TrainFraction != nil {
			fraction = strconv.FormatFloat(*j.TrainFraction, 'g', -1, 64)
		}
		if j.Seed != nil {
			seed = strconv.FormatUint(*j.Seed, 10)
		}
		if mean {
			seed = strconv.Itoa(j.Seeds)
		}
		cells := []string{j.Split, fraction, strconv.Itoa(j.MaxDepth), strconv.Itoa(j.MinLeaf), j.Weight, seed,
			num(j.Inputs, 0, ""), num(j.Leaves, 0, ""), num(j.Accuracy, 3, ""), num(j.Total, 3, "x")}
		switch {
		case mean && plain:
			cells = append(cells, num(*j.TotalMin, 3, ""), num(*j.TotalMax, 3, ""))
		case mean:
			cells = append(cells, num(*j.TotalMin, 3, "")+"-"+num(*j.TotalMax, 3, "x"))
		}
		t.Add(append(cells, num(j.Avg, 3, "x"), num(j.BestNonSwitching, 3, "x"), num(j.Worst, 2, "x"))...)
	}
	return t
}

// Table is both sides of v (held out, all rows) as a table: rows,
// accuracy, soft errors (within v.Tolerance; "n/a" when unknown), hard
// errors and predictions not measured; with level times (rows from a
// results directory or store, not a CSV) the inputs and Mix-and-Match's
// total, avg and worst and the best non-switching total ("n/a" without
// them). Shares are percentages with one decimal. The columns are text:
// each mixes counts, percentages and ratios. Cost: O(1).
func (v *ModelValidation) Table() table.Table {
	sides := v.Sides
	pct := func(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + "%" }
	times := func(r *aggregate.Row, f func(*aggregate.Row) float64) string {
		if r == nil {
			return "n/a"
		}
		return fmt.Sprintf("%.2fx", f(r))
	}
	var t table.Table
	t.AddColumns(table.TextCol(""), table.TextCol("held out"), table.TextCol("all rows"))
	row := func(name string, f func(s *Side) string) { t.Add(name, f(&sides[0]), f(&sides[1])) }
	row("rows", func(s *Side) string { return strconv.Itoa(s.Validation.Rows) })
	row("accuracy", func(s *Side) string { return pct(s.Validation.Accuracy()) })
	row(fmt.Sprintf("soft errors (<= +%g%%)", 100*v.Tolerance), func(s *Side) string {
		if !s.Validation.SoftKnown {
			return "n/a"
		}
		return pct(s.Validation.SoftErrorRate())
	})
	row("hard errors", func(s *Side) string { return pct(s.Validation.HardErrorRate()) })
	row("  predicted not measured", func(s *Side) string { return strconv.Itoa(s.Validation.Unmeasured) })
	if v.Set.Data != nil {
		row("inputs", func(s *Side) string { return strconv.Itoa(s.Inputs) })
		row("Mix-and-Match total", func(s *Side) string { return times(s.Model, func(r *aggregate.Row) float64 { return r.Total }) })
		row("Mix-and-Match avg", func(s *Side) string { return times(s.Model, func(r *aggregate.Row) float64 { return r.Avg }) })
		row("Mix-and-Match worst", func(s *Side) string { return times(s.Model, func(r *aggregate.Row) float64 { return r.Worst }) })
		row("best non-switching total", func(s *Side) string { return times(s.Best, func(r *aggregate.Row) float64 { return r.Total }) })
	}
	return t
}

// Table is ct as a table: a row per shown true class (numbered from 1;
// column heads the class column), its rows, the count predicted as each
// shown class (columns numbered alike), as another class ("other"), and
// its recall (a whole percentage); then, when classes are cut, a row
// "N more" summing them. Cost: O(shown²).
func (ct ConfusionTop) Table(column string) table.Table {
	var t table.Table
	t.AddColumns(table.IntCol("", ""), table.TextCol(column), table.IntCol("rows", ""))
	for i := range ct.Shown {
		t.AddColumns(table.IntCol(strconv.Itoa(i+1), ""))
	}
	t.AddColumns(table.IntCol("other", ""), table.TextUnitCol("recall", "%"))
	add := func(num, class string, r *ConfusionRow) {
		cells := []string{num, class, strconv.Itoa(r.Rows)}
		for _, k := range r.Counts {
			cells = append(cells, strconv.Itoa(k))
		}
		t.Add(append(cells, strconv.Itoa(r.Other), strconv.FormatFloat(100*r.Recall, 'f', 0, 64)+"%")...)
	}
	for i := range ct.Shown {
		add(strconv.Itoa(i+1), ct.Shown[i].Class, &ct.Shown[i])
	}
	if ct.Rest != nil {
		add("", fmt.Sprintf("%d more", ct.Present-len(ct.Shown)), ct.Rest)
	}
	return t
}
