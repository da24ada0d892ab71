package table

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrValue is returned, wrapped, by FromValues for a value of a type it
// does not write.
var ErrValue = errors.New("table: unsupported value")

// FromValues returns the table name, titled title, with the declared
// columns (the header is their names) and one row per element of rows,
// each value written as its cell's text: a string as it is, a bool as
// "true" or "false", an integer in base 10, a float64 or float32 with the
// fewest digits that read back to the same value (strconv 'g', -1), nil as
// an empty cell. The table is then checked (Check), so a value that
// contradicts its column's kind, such as a string in a Number column or a
// NaN, is an ErrKind error naming the table, column and row. A value of
// another type is an ErrValue error. It costs one pass over the values.
func FromValues(name, title string, cols []Column, rows [][]any) (Table, error) {
	t := Table{Name: name, Title: title, Columns: cols, Header: make([]string, len(cols))}
	for j, c := range cols {
		t.Header[j] = c.Name
	}
	t.Rows = make([][]string, len(rows))
	for i, row := range rows {
		t.Rows[i] = make([]string, len(row))
		for j, v := range row {
			s, ok := formatValue(v)
			if !ok {
				return Table{}, fmt.Errorf("%w in table %s: row %d, column %d: %T", ErrValue, name, i+1, j+1, v)
			}
			t.Rows[i][j] = s
		}
	}
	if err := t.Check(); err != nil {
		return Table{}, err
	}
	return t, nil
}

// formatValue writes v as FromValues documents; false for a type it does
// not write.
func formatValue(v any) (string, bool) {
	switch v := v.(type) {
	case nil:
		return "", true
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case int:
		return strconv.Itoa(v), true
	case int32:
		return strconv.FormatInt(int64(v), 10), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case uint:
		return strconv.FormatUint(uint64(v), 10), true
	case uint32:
		return strconv.FormatUint(uint64(v), 10), true
	case uint64:
		return strconv.FormatUint(v, 10), true
	case float32:
		return strconv.FormatFloat(float64(v), 'g', -1, 32), true
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), true
	}
	return "", false
}
