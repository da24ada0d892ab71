package layout

import (
	"errors"
	"testing"
)

func TestNewPlacesArraysAligned(t *testing.T) {
	// n = 6, m = 6: the seed 000 figure 2 graph.
	lens := Lengths(6, 6, Offsets, Targets, Depth, Counters)
	l, err := New(lens, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		a        Array
		base     uint64
		elem     uint64
		elements int64
	}{
		{Offsets, DefaultBase, 8, 7},
		{Targets, DefaultBase + DefaultAlign, 4, 6},
		{Depth, DefaultBase + 2*DefaultAlign, 4, 6},
		{Counters, DefaultBase + 3*DefaultAlign, 4, CounterWords},
	}
	rs := l.Regions()
	if len(rs) != len(want) {
		t.Fatalf("%d regions, want %d", len(rs), len(want))
	}
	for i, w := range want {
		r := rs[i]
		if r.Array != w.a || r.Base != w.base || r.ElemSize != w.elem || r.Len != w.elements {
			t.Errorf("region %d = %+v, want %v at %#x, %d x %d B", i, r, w.a, w.base, w.elements, w.elem)
		}
	}
	if l.Has(EdgeSrc) || !l.Has(Depth) || l.Has(NumArrays) || l.Has(-1) {
		t.Error("Has")
	}
	// off[4] is byte 32: the second sector of the offsets.
	if a := l.Addr(Offsets, 4); a != DefaultBase+32 || Sector(a) != DefaultBase/32+1 || Line(a) != DefaultBase/128 {
		t.Errorf("off[4] at %#x, sector %d, line %d", a, Sector(a), Line(a))
	}
	if SectorAddr(DefaultBase+45) != DefaultBase+32 {
		t.Error("SectorAddr")
	}
	if r, ok := l.Find(DefaultBase + DefaultAlign + 23); !ok || r.Array != Targets {
		t.Errorf("Find: %v %v", r, ok)
	}
	if _, ok := l.Find(DefaultBase + DefaultAlign + 24); ok {
		t.Error("Find past the targets' 24 bytes found a region")
	}
	if l.Addr(Counters, MFWord)-l.Region(Counters).Base != 16 {
		t.Error("LevelStats.mf is at byte 16")
	}
}

func TestNewOptions(t *testing.T) {
	lens := Lengths(1000, 5000, Offsets, Targets, EdgesAoS, Bitmap, Queue)
	l, err := New(lens, Options{Base: 1000, Align: 256, ElemBytes: [NumArrays]uint64{Offsets: 4}})
	if err != nil {
		t.Fatal(err)
	}
	prev := uint64(0)
	for _, r := range l.Regions() {
		if r.Base%256 != 0 || r.Base < prev {
			t.Errorf("%v at %#x: not 256-aligned after %#x", r.Array, r.Base, prev)
		}
		prev = r.End()
	}
	if r := l.Region(Offsets); r.Base != 1024 || r.ElemSize != 4 || r.Len != 1001 {
		t.Errorf("offsets %+v", r)
	}
	if r := l.Region(Bitmap); r.Len != 32 || r.ElemSize != 4 {
		t.Errorf("bitmap %+v: want ceil(1000/32) = 32 words", r)
	}
	if r := l.Region(EdgesAoS); r.ElemSize != 8 || r.Bytes() != 40000 {
		t.Errorf("edges %+v", r)
	}
	for _, opt := range []Options{{Align: 128}, {Align: 384}, {ElemBytes: [NumArrays]uint64{Depth: 3}}} {
		if _, err := New(lens, opt); !errors.Is(err, ErrBadOptions) {
			t.Errorf("New(%+v): %v, want ErrBadOptions", opt, err)
		}
	}
	var neg [NumArrays]int64
	neg[Depth] = -1
	if _, err := New(neg, Options{}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("negative length: %v", err)
	}
	// An empty graph still gets one element per array it needs.
	if e := Lengths(0, 0, Targets, Depth, Array(-3), NumArrays); e[Targets] != 1 || e[Depth] != 1 {
		t.Errorf("Lengths(0, 0) = %v", e)
	}
}

func TestRegionPanics(t *testing.T) {
	l, err := New(Lengths(4, 4, Depth), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Region of an absent array did not panic")
		}
	}()
	l.Region(Targets)
}

func TestArrayNames(t *testing.T) {
	if Offsets.String() != "offsets" || BitmapNext.String() != "bitmap-next" || NumArrays.String() != "Array(17)" {
		t.Error("names")
	}
	if Offsets.ElemBytes() != 8 || Targets.ElemBytes() != 4 || EdgesAoS.ElemBytes() != 8 || Array(-1).ElemBytes() != 0 {
		t.Error("element sizes")
	}
}
