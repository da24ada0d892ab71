package split

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestReadCSV(t *testing.T) {
	const data = "graph,x,y,best,weight\n" +
		"g1,1,10,push,2\n" +
		"g1,2,20,pull,0\n" +
		"g2,3, 30 ,push,1.5\n"
	d, err := ReadCSV(strings.NewReader(data), "t.csv", CSVOptions{Label: "best", WeightColumn: "weight"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Features, []string{"x", "y"}) || !slices.Equal(d.Ignored, []string{"graph"}) ||
		!slices.Equal(d.Classes, []string{"pull", "push"}) || !d.HasWeight || len(d.Rows) != 3 {
		t.Fatalf("%+v", d)
	}
	if r := d.Rows[2]; !slices.Equal(r.Features, []float64{3, 30}) || r.Label != 1 || r.Weight != 1.5 {
		t.Errorf("row 2 = %+v", r)
	}
	d, err = ReadCSV(strings.NewReader(data), "t.csv", CSVOptions{Label: "best", WeightColumn: "w", Ignore: []string{"y"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Features, []string{"x", "weight"}) || d.HasWeight || d.Rows[0].Weight != 1 {
		t.Errorf("without a weight column: %+v", d)
	}
}

func TestReadCSVErrors(t *testing.T) {
	tests := []struct {
		name, data string
		line       int
	}{
		{"no label column", "x,y\n1,a\n", 1},
		{"duplicate column", "x,x,best\n1,2,a\n", 1},
		{"field count", "x,best\n1,a\n2,b,3\n", 3},
		{"not a number", "x,best\n1,a\n2,b\nthree,c\n", 4},
		{"not finite", "x,best\n1,a\nNaN,b\n", 3},
		{"empty label", "x,best\n1,a\n2,\n", 3},
		{"negative weight", "x,best,weight\n1,a,1\n2,b,-1\n", 3},
		{"bad quote", "x,best\n1,\"a\n", 2},
		{"no records", "x,best\n", 2},
		{"no features", "name,best\nfoo,a\n", 1},
	}
	for _, tt := range tests {
		_, err := ReadCSV(strings.NewReader(tt.data), "t.csv", CSVOptions{Label: "best", WeightColumn: "weight"})
		var ce *CSVError
		if !errors.As(err, &ce) || ce.File != "t.csv" || ce.Line != tt.line {
			t.Errorf("%s: err = %v, want t.csv:%d", tt.name, err, tt.line)
		}
	}
}

// FuzzReadCSV: whatever ReadCSV accepts has rows of finite features with
// labels in range and non-negative weights.
func FuzzReadCSV(f *testing.F) {
	f.Add("x,y,best,weight\n1,2,a,1\n3,4,b,0\n")
	f.Add("g,x,best\nfoo,1e3,a\nbar,-2,a\n")
	f.Add("best,x\n\"q,\"\"\",1\n")
	f.Fuzz(func(t *testing.T, data string) {
		d, err := ReadCSV(strings.NewReader(data), "f.csv", CSVOptions{Label: "best", WeightColumn: "weight"})
		if err != nil {
			return
		}
		for _, r := range d.Rows {
			if len(r.Features) != len(d.Features) || r.Label < 0 || r.Label >= len(d.Classes) || !(r.Weight >= 0) {
				t.Fatalf("bad row %+v of %+v", r, d)
			}
		}
	})
}
