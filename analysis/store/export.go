package store

import (
	"encoding/csv"
	"errors"
	"io"
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
)

// ErrExportTable is ExportColumns's and DB.Export's error for a table name
// other than "runs" or "levels".
var ErrExportTable = errors.New("store: no such export table (want runs or levels)")

// exportColumns are the tables Export writes, with their declared
// columns (the CSV header is their names).
var exportColumns = map[string][]table.Column{
	"runs": append([]table.Column{table.IntCol("run_id", ""), table.TextCol("dataset"), table.TextCol("graph"), table.TextCol("algorithm"),
		table.TextCol("impl"), table.IntCol("root", "vertex"), table.TextCol("platform"), table.IntCol("levels", "levels")},
		append(exportTimes(), table.BoolCol("validated"))...),
	"levels": append([]table.Column{table.IntCol("run_id", ""), table.TextCol("graph"), table.TextCol("impl"), table.IntCol("root", "vertex"),
		table.IntCol("level", ""), table.IntCol("frontier", "vertices"), table.IntCol("discovered", "vertices"), table.TextCol("direction")},
		exportTimes()...),
}

// exportTimes are the time columns of both export tables, in ns.
func exportTimes() []table.Column {
	var cols []table.Column
	for _, name := range []string{"min_ns", "median_ns", "mean_ns", "max_ns", "stddev_ns"} {
		cols = append(cols, table.NumCol(name, "ns"))
	}
	return cols
}

// ExportColumns returns the CSV header of the export table name ("runs"
// or "levels"), or ErrExportTable. O(1).
func ExportColumns(name string) ([]string, error) {
	cols, ok := exportColumns[name]
	if !ok {
		return nil, ErrExportTable
	}
	header := make([]string, len(cols))
	for j, c := range cols {
		header[j] = c.Name
	}
	return header, nil
}

// ExportTable is one table of the store as CSV cells: every time in ns
// with up to 6 significant digits, integers in decimal.
type ExportTable struct {
	Name   string
	Header []string
	Rows   [][]string
	// Columns declares each column's kind and unit, one per Header cell.
	Columns []table.Column
}

// Table is t as a table of the table package, named "export-NAME". O(1).
func (t *ExportTable) Table() table.Table {
	return table.Table{Name: "export-" + t.Name, Header: t.Header, Rows: t.Rows, Columns: t.Columns}
}

// Export reads the table name of the store: "runs" (one row per run:
// DB.Totals over every run) or "levels" (one row per run and level:
// DB.LevelMedians). It costs one query over the runs (and their levels).
func (db *DB) Export(name string) (*ExportTable, error) {
	header, err := ExportColumns(name)
	if err != nil {
		return nil, err
	}
	t := &ExportTable{Name: name, Header: header, Columns: exportColumns[name]}
	if name == "runs" {
		ts, err := db.Totals(Filter{})
		if err != nil {
			return nil, err
		}
		for _, r := range ts {
			t.Rows = append(t.Rows, []string{table.Int(r.RunID), r.Dataset, r.Graph, r.Algorithm, r.Implementation,
				table.Int(r.Root), r.Platform, strconv.Itoa(r.Levels), table.G6(r.MinNs), table.G6(r.MedianNs), table.G6(r.MeanNs),
				table.G6(r.MaxNs), table.G6(r.StddevNs), strconv.FormatBool(r.Validated)})
		}
		return t, nil
	}
	ms, err := db.LevelMedians(Filter{})
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		t.Rows = append(t.Rows, []string{table.Int(m.RunID), m.Graph, m.Implementation, table.Int(m.Root),
			strconv.Itoa(m.Level), table.Int(m.Frontier), table.Int(m.Discovered), m.Direction, table.G6(m.MinNs), table.G6(m.MedianNs),
			table.G6(m.MeanNs), table.G6(m.MaxNs), table.G6(m.StddevNs)})
	}
	return t, nil
}

// WriteCSV writes t's header and rows to w as CSV; O(cells).
func (t *ExportTable) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(t.Header)
	cw.WriteAll(t.Rows)
	return cw.Error()
}
