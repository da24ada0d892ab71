package catalog

import (
	"slices"
	"testing"
)

func TestSwitchConversions(t *testing.T) {
	d, q, b := FormDepth, FormQueue, FormBitmap
	for _, tc := range []struct {
		forms []Form
		want  []string
	}{
		// Topology-driven throughout: nothing to convert.
		{[]Form{d, d, d}, []string{"-", "-", "-"}},
		// The root starts in the queue, so a first queue level needs none;
		// a queue after a depth level is rebuilt from the depth array.
		{[]Form{q, d, q, q}, []string{"-", "-", "depth-to-queue", "-"}},
		// dobfs going bottom-up after a queue level, back top-down after.
		{[]Form{q, b, b, q}, []string{"-", "queue-to-bitmap", "-", "bitmap-to-queue"}},
		// A bitmap level after a depth level.
		{[]Form{d, b, d, q}, []string{"-", "depth-to-bitmap", "-", "depth-to-queue"}},
		// A bitmap at level 0: the root's queue is there.
		{[]Form{b}, []string{"queue-to-bitmap"}},
	} {
		if got := SwitchConversions(tc.forms); !slices.Equal(got, tc.want) {
			t.Errorf("%v: got %v, want %v", tc.forms, got, tc.want)
		}
	}
}

func TestImplForm(t *testing.T) {
	for _, tc := range []struct {
		name string
		bu   bool
		want Form
	}{
		{"topo", true, FormDepth},
		{"vertex-pull-warp4/bulk", false, FormDepth},
		{"queue", true, FormQueue},
		{"dobfs", false, FormQueue},
		{"dobfs", true, FormBitmap},
	} {
		k, err := Parse(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := k.Form(tc.bu); got != tc.want {
			t.Errorf("%s bottom-up %v: %v, want %v", tc.name, tc.bu, got, tc.want)
		}
	}
}
