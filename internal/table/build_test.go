package table

import (
	"errors"
	"reflect"
	"testing"
)

func TestBuild(t *testing.T) {
	var tb Table
	tb.Name = "b"
	tb.AddColumns(TextCol("graph"), IntCol("levels", ""), NumCol("time_ms", "ms").OrMissing("-"), BoolCol("ok"),
		TextUnitCol("speedup", "x"))
	tb.Add("road", "12", "1.5", "true", "3.17x")
	tb.Add("er", "3", "-", "false", "1.00x")
	if want := []string{"graph", "levels", "time_ms", "ok", "speedup"}; !reflect.DeepEqual(tb.Header, want) {
		t.Fatalf("header %v, want %v", tb.Header, want)
	}
	if tb.Columns[2].Unit != "ms" || tb.Columns[2].Missing != "-" || tb.Columns[1].Kind != Integer {
		t.Fatalf("columns %+v", tb.Columns)
	}
	if err := tb.Check(); err != nil {
		t.Fatal(err)
	}
	tb.Add("ws", "x", "1", "true", "1x")
	if err := tb.Check(); !errors.Is(err, ErrKind) {
		t.Fatalf("a text cell in an integer column: %v, want ErrKind", err)
	}
}
