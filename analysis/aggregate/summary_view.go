package aggregate

import "strconv"

// Label is the row's name as the summary table shows it: the
// implementation, or for a family row "family (best member)". O(1).
func (r SummaryRow) Label() string {
	if r.Family != "" {
		return r.Family + " (" + r.Impl + ")"
	}
	return r.Impl
}

// WorstInput is the input of the row's largest slowdown as GRAPH@ROOT, or
// "-" when the row has none (the optimal row). O(1).
func (r SummaryRow) WorstInput() string {
	if r.WorstGraph == "" {
		return "-"
	}
	return r.WorstGraph + "@" + strconv.FormatUint(uint64(r.WorstRoot), 10)
}

// Shown is how many implementation (or family) rows s shows: its rows
// less the optimal and best non-switching ones; below s.Candidates when
// Top or Impl left some out. O(1).
func (s *Summary) Shown() int { return len(s.Rows) - 2 }

// LevelTimesOf returns the level times of the input spec names
// (GRAPH@ROOT): ErrNotInput when spec is not of that form, else
// Summary.LevelTimes's result (ErrNoLevelTimes when no run has level
// times on it). Its cost is one pass over s.Runs.
func (s *Summary) LevelTimesOf(spec string) (*LevelTimes, error) {
	in, err := ParseInput(spec)
	if err != nil {
		return nil, err
	}
	return s.LevelTimes(in)
}

// Best returns the level times of lt's first n families (the best, in the
// order of Families), keyed by family: what a figure of the level times
// draws. O(n).
func (lt *LevelTimes) Best(n int) map[string][]float64 {
	shown := map[string][]float64{}
	for i, f := range lt.Families {
		if i < n {
			shown[f] = lt.Levels[f]
		}
	}
	return shown
}
