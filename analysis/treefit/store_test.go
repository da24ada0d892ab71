package treefit

import "testing"

func TestLinkNote(t *testing.T) {
	for _, c := range []struct {
		links, train, missing, ambiguous int
		want                             string
	}{
		{0, 0, 3, 0, "no stored run matches the training rows' runs; training_query records their source and hash"},
		{4, 3, 0, 0, "4 runs linked (3 train, 1 validation)"},
		{4, 3, 2, 1, "4 runs linked (3 train, 1 validation); 2 runs not in the store; 1 matched more than one stored run, not linked"},
	} {
		if got := linkNote(c.links, c.train, c.missing, c.ambiguous); got != c.want {
			t.Errorf("linkNote(%d, %d, %d, %d) = %q, want %q", c.links, c.train, c.missing, c.ambiguous, got, c.want)
		}
	}
}
