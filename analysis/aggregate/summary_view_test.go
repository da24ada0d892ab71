package aggregate

import (
	"errors"
	"strconv"
	"testing"
)

// storeSummary is the Summary of ../store/testdata (ba-s12-m16 and
// cfg-normal-s12 of the H100 dataset, 5 roots x 59 implementations).
func storeSummary(t *testing.T, opts SummaryOptions) *Summary {
	t.Helper()
	d, err := LoadDir("../store/testdata")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSummary(d, "../store/testdata", opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSummaryRowLabels(t *testing.T) {
	r := SummaryRow{Impl: "edge-list/atomic", Family: "edge-list", WorstGraph: "ba-s12-m16", WorstRoot: 222}
	if got := r.Label(); got != "edge-list (edge-list/atomic)" {
		t.Errorf("family row label %q", got)
	}
	if got := r.WorstInput(); got != "ba-s12-m16@222" {
		t.Errorf("worst input %q", got)
	}
	r = SummaryRow{Impl: "optimal"}
	if r.Label() != "optimal" || r.WorstInput() != "-" {
		t.Errorf("optimal row: %q, %q; want optimal, -", r.Label(), r.WorstInput())
	}
}

func TestSummaryShown(t *testing.T) {
	all := storeSummary(t, SummaryOptions{Against: AgainstLevels})
	if all.Shown() != all.Candidates || all.Candidates != 59 {
		t.Errorf("all: %d shown of %d, want 59 of 59", all.Shown(), all.Candidates)
	}
	top := storeSummary(t, SummaryOptions{Against: AgainstLevels, Top: 3})
	if top.Shown() != 3 || top.Candidates != 59 {
		t.Errorf("--top 3: %d shown of %d, want 3 of 59", top.Shown(), top.Candidates)
	}
}

func TestSummaryLevelTimesOf(t *testing.T) {
	s := storeSummary(t, SummaryOptions{Against: AgainstLevels, Families: true})
	for _, spec := range []string{"ba-s12-m16", "ba-s12-m16@x", "@"} {
		if _, err := s.LevelTimesOf(spec); !errors.Is(err, ErrNotInput) {
			t.Errorf("%q: err = %v, want ErrNotInput", spec, err)
		}
	}
	if _, err := s.LevelTimesOf("ba-s12-m16@4294967295"); !errors.Is(err, ErrNoLevelTimes) {
		t.Errorf("unknown root: err = %v, want ErrNoLevelTimes", err)
	}
	in := s.Runs[0].Input
	spec := in.Graph + "@" + strconv.FormatUint(uint64(in.Root), 10)
	lt, err := s.LevelTimesOf(spec)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	if lt.Input != in || len(lt.Families) < 8 || len(lt.Optimal) == 0 {
		t.Fatalf("%s: input %v, %d families, %d levels; want %v, >= 8 families", spec, lt.Input, len(lt.Families), len(lt.Optimal), in)
	}
	best := lt.Best(7)
	if len(best) != 7 {
		t.Fatalf("Best(7): %d families", len(best))
	}
	for _, f := range lt.Families[:7] {
		if ls, ok := best[f]; !ok || len(ls) != len(lt.Levels[f]) {
			t.Errorf("Best(7) lacks %s, one of the first seven families", f)
		}
	}
	if _, ok := best[lt.Families[7]]; ok {
		t.Errorf("Best(7) holds the eighth family %s", lt.Families[7])
	}
}
