package kernels

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/catalog"
)

// TestCatalogMatchesRunner reads all_impls in kernels/cuda/hostutil.h, the
// runner's list, and checks that the catalog has its families in its order,
// its virtual warp widths and its 59 names: adding a kernel to one side only
// fails here.
func TestCatalogMatchesRunner(t *testing.T) {
	src, err := os.ReadFile("cuda/hostutil.h")
	if err != nil {
		t.Fatal(err)
	}
	body := string(src)
	start := strings.Index(body, "all_impls() {")
	end := strings.Index(body[start:], "return v;")
	if start < 0 || end < 0 {
		t.Fatal("hostutil.h: no all_impls")
	}
	body = body[start : start+end]
	// Every family appears as a quoted name next to its Kind, in order:
	// push_back({"topo", "topo", Kind::Topo, ...}) or {"edge-list", Kind::EdgeList}.
	var families []string
	for _, m := range regexp.MustCompile(`"([a-z-]+)",\s*Kind::`).FindAllStringSubmatch(body, -1) {
		families = append(families, m[1])
	}
	if want := catalog.FamilyNames(); !slices.Equal(families, want) {
		t.Errorf("hostutil.h families %v, catalog %v", families, want)
	}
	wm := regexp.MustCompile(`widths\[\] = \{([0-9, ]+)\}`).FindStringSubmatch(body)
	if wm == nil {
		t.Fatal("hostutil.h: no widths")
	}
	var widths []int
	for _, f := range strings.Split(wm[1], ",") {
		w, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			t.Fatal(err)
		}
		widths = append(widths, w)
	}
	if !slices.Equal(widths, catalog.Widths) {
		t.Errorf("hostutil.h widths %v, catalog %v", widths, catalog.Widths)
	}
	if !strings.Contains(body, "a = AGG_ATOMIC; a <= AGG_BLOCK") || len(catalog.Aggregations) != 4 {
		t.Error("hostutil.h: the aggregated families no longer take AGG_ATOMIC..AGG_BLOCK")
	}
	if len(Impls) != 59 {
		t.Errorf("%d implementations, want 59", len(Impls))
	}
}
