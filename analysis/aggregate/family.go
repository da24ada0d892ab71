package aggregate

import (
	"sort"
	"strings"
)

// Family is an implementation's strategy without its frontier-count
// aggregation and virtual-warp width (kernels/cuda/README.md): "edge-list"
// for edge-list/bulk, "vertex-push-warp" for vertex-push-warp16/atomic,
// "queue" for queue.
func Family(impl string) string {
	base, _, _ := strings.Cut(impl, "/")
	if strings.HasPrefix(base, "vertex-push-warp") || strings.HasPrefix(base, "vertex-pull-warp") {
		return strings.TrimRight(base, "0123456789")
	}
	return base
}

// FamilyRow is the row of a family's best member.
type FamilyRow struct {
	Family  string
	Members int // implementations of the family in the table
	Row         // the member with the least Total
}

// Families returns one row per implementation family: its member with the
// least normalised total, as seed 004 table 4.5 shows "only the fastest
// virtual warp implementation" of a family (line 1594). Rows are by Total,
// then by family name.
func (t *Table) Families() []FamilyRow {
	byFamily := map[string]*FamilyRow{}
	for _, r := range t.Rows { // by Total already: the first member is the best
		f := Family(r.Name)
		if fr := byFamily[f]; fr != nil {
			fr.Members++
			continue
		}
		byFamily[f] = &FamilyRow{Family: f, Members: 1, Row: r}
	}
	out := make([]FamilyRow, 0, len(byFamily))
	for _, fr := range byFamily {
		out = append(out, *fr)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Total != out[j].Total {
			return out[i].Total < out[j].Total
		}
		return out[i].Family < out[j].Family
	})
	return out
}
