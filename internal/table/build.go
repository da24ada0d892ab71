package table

// Add appends one row of cells to t. It costs one append.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// AddColumns appends declared columns to t: their names to Header, their
// kinds and units to Columns. A table declares all its columns this way or
// none.
func (t *Table) AddColumns(cols ...Column) {
	for _, c := range cols {
		t.Header = append(t.Header, c.Name)
		t.Columns = append(t.Columns, c)
	}
}

// TextCol, IntCol, NumCol, BoolCol and PctCol declare a column of text,
// base-10 integers, numbers, booleans or percentages ("7.8%", unit "%");
// unit is the values' unit ("" for none).
func TextCol(name string) Column           { return Column{Name: name, Kind: Text} }
func IntCol(name, unit string) Column      { return Column{Name: name, Unit: unit, Kind: Integer} }
func NumCol(name, unit string) Column      { return Column{Name: name, Unit: unit, Kind: Number} }
func BoolCol(name string) Column           { return Column{Name: name, Kind: Bool} }
func TextUnitCol(name, unit string) Column { return Column{Name: name, Unit: unit, Kind: Text} }
func PctCol(name string) Column            { return Column{Name: name, Unit: "%", Kind: Percentage} }

// OrMissing is c with text (such as "-") as the cell of no value, and
// others as further texts of no finite value ("+Inf").
func (c Column) OrMissing(text string, others ...string) Column {
	c.Missing = text
	c.Others = others
	return c
}
