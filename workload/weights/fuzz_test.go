package weights

import (
	"bytes"
	"testing"
)

// FuzzRead: Read never panics, and whatever it accepts has every weight in
// 1..W and survives a Write/Read round trip.
func FuzzRead(f *testing.F) {
	var good bytes.Buffer
	Write(&good, Header{N: 3, MaxWeight: 9, Seed: 2, Scheme: SchemeHash}, []uint32{1, 9, 4})
	f.Add(good.Bytes(), true)
	f.Add([]byte("GPW1"), false)
	f.Add(make([]byte, HeaderSize), true)
	f.Fuzz(func(t *testing.T, b []byte, sized bool) {
		size := int64(-1)
		if sized {
			size = int64(len(b))
		}
		h, w, err := Read(bytes.NewReader(b), size)
		if err != nil {
			return
		}
		for _, x := range w {
			if x == 0 || x > h.MaxWeight {
				t.Fatalf("accepted weight %d outside 1..%d", x, h.MaxWeight)
			}
		}
		var out bytes.Buffer
		if err := Write(&out, h, w); err != nil {
			t.Fatal(err)
		}
		h2, w2, err := Read(bytes.NewReader(out.Bytes()), int64(out.Len()))
		if err != nil || h2.CRC != h.CRC || len(w2) != len(w) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
