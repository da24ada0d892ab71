package treefit

import (
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"
)

func TestDatasetTable(t *testing.T) {
	features := make([]float64, len(split.FeatureNames))
	features[0] = 0.25
	ds := &Dataset{Labels: []string{"topo", "queue"}, Rows: []split.Row{{Graph: "g", Root: 3, Level: 2, Features: features, Label: 1, Weight: 1e-6}}}
	tab := ds.Table()
	if len(tab.Header) != 3+len(split.FeatureNames)+2 || tab.Header[len(tab.Header)-2] != "label" {
		t.Fatalf("header %q", tab.Header)
	}
	row := tab.Rows[0]
	if row[0] != "g" || row[1] != "3" || row[2] != "2" || row[3] != "0.25" || row[len(row)-2] != "queue" || row[len(row)-1] != "1e-06" {
		t.Errorf("row %q", row)
	}
}

func TestEvaluationResultTable(t *testing.T) {
	ev := &Evaluation{Set: &Set{Split: split.DefaultSplit}, Table: &aggregate.Table{Inputs: make([]aggregate.Input, 3)},
		Rows: []aggregate.Row{{Name: "model: x", Total: 1.234, Avg: 1.5, Within2x: 0.666, Over5x: 0, Over20x: 0, Worst: 3}}}
	text, raw := ev.ResultTable(false), ev.ResultTable(true)
	if got := strings.Join(text.Rows[0], "|"); got != "model: x|1.23x|1.50x|67%|0%|0%|3.00x" {
		t.Errorf("text row %q", got)
	}
	if got := strings.Join(raw.Rows[0], "|"); got != "model: x|1.234|1.5|0.666|0|0|3" {
		t.Errorf("raw row %q", got)
	}
	if raw.Name != "tree-evaluate" || !strings.Contains(raw.Title, "(3)") {
		t.Errorf("name %q, title %q", raw.Name, raw.Title)
	}
}

func TestSmallTables(t *testing.T) {
	it := ImportanceTable([]Importance{{Feature: "frontier", Importance: 0.51234}})
	if strings.Join(it.Rows[0], "|") != "frontier|0.5123" {
		t.Errorf("importance row %q", it.Rows[0])
	}
	mt := ModelsTable([]ModelSummary{{ID: 2, Kind: "tree", Split: "graphs", Features: 27, TrainRuns: 10, ValidationRuns: 4, CreatedAt: "2026-01-02T03:04:05Z"}})
	if strings.Join(mt.Rows[0], "|") != "2|tree|graphs|27|10|4|2026-01-02T03:04:05Z" {
		t.Errorf("models row %q", mt.Rows[0])
	}
	ct := ConfusionTop{Total: 10, Present: 3,
		Shown: []ConfusionRow{{Class: "topo", Rows: 6, Counts: []int{5, 1}, Recall: 5.0 / 6}, {Class: "queue", Rows: 3, Counts: []int{1, 2}, Recall: 2.0 / 3}},
		Rest:  &ConfusionRow{Rows: 1, Counts: []int{0, 0}, Other: 1}}
	cm := ct.Table("fastest")
	if strings.Join(cm.Header, "|") != "|fastest|rows|1|2|other|recall" || strings.Join(cm.Rows[0], "|") != "1|topo|6|5|1|0|83%" ||
		strings.Join(cm.Rows[2], "|") != "|1 more|1|0|0|1|0%" {
		t.Errorf("confusion %q %q", cm.Header, cm.Rows)
	}
}

func TestStudyTable(t *testing.T) {
	f, seed, lo, hi := 0.5, uint64(7), 1.1, 1.3
	rows := []Row{{Split: "graphs", TrainFraction: &f, MaxDepth: 4, MinLeaf: 5, Weight: "time", Seed: &seed, Seeds: 2,
		Inputs: 10, Leaves: 12.5, Accuracy: 0.8125, Total: 1.2, TotalMin: &lo, TotalMax: &hi, Avg: 1.25, BestNonSwitching: 1.5, Worst: 2.25}}
	one := StudyTable(rows, false, false)
	if got := strings.Join(one.Rows[0], "|"); got != "graphs|0.5|4|5|time|7|10|12|0.812|1.200x|1.250x|1.500x|2.25x" || one.Header[5] != "seed" {
		t.Errorf("row %q", got)
	}
	mean := StudyTable(rows, true, false)
	if got := strings.Join(mean.Rows[0], "|"); got != "graphs|0.5|4|5|time|2|10|12|0.812|1.200x|1.100-1.300x|1.250x|1.500x|2.25x" || mean.Header[5] != "seeds" {
		t.Errorf("mean row %q", got)
	}
	plain := StudyTable(rows, true, true)
	if got := strings.Join(plain.Rows[0], "|"); got != "graphs|0.5|4|5|time|2|10|12.5|0.8125|1.2|1.1|1.3|1.25|1.5|2.25" || len(plain.Header) != 15 {
		t.Errorf("plain row %q", got)
	}
	rows[0].TrainFraction, rows[0].Seed = nil, nil
	if got := StudyTable(rows, false, false).Rows[0]; got[1] != "-" || got[5] != "-" {
		t.Errorf("no fraction or seed: %q", got)
	}
}

func TestModelValidationTable(t *testing.T) {
	model := &aggregate.Row{Total: 1.25, Avg: 1.5, Worst: 4}
	side := Side{Validation: split.Validation{Rows: 8, Correct: 6, Soft: 1, Hard: 1, SoftKnown: true}, Inputs: 2, Model: model}
	v := &ModelValidation{Tolerance: 0.05, Sides: [2]Side{side, side}, Set: &Set{Data: &split.Data{}}}
	tab := v.Table()
	got := map[string]string{}
	for _, r := range tab.Rows {
		got[r[0]] = r[1]
	}
	for k, want := range map[string]string{"rows": "8", "accuracy": "75.0%", "soft errors (<= +5%)": "12.5%", "hard errors": "12.5%",
		"Mix-and-Match total": "1.25x", "Mix-and-Match worst": "4.00x", "best non-switching total": "n/a"} {
		if got[k] != want {
			t.Errorf("%s = %q, want %q", k, got[k], want)
		}
	}
	// A CSV's rows have no level times: no Mix-and-Match rows, soft errors unknown.
	v.Set.Data = nil
	v.Sides[0].Validation.SoftKnown = false
	csv := v.Table()
	if len(csv.Rows) != 5 || csv.Rows[2][1] != "n/a" {
		t.Errorf("CSV rows %q", csv.Rows)
	}
}
