package om

import (
	"reflect"
	"testing"
)

func TestParseServiceTimes(t *testing.T) {
	servers := []Server{{Name: AllNodesInput}, {Name: "OP"}}
	for _, c := range []struct {
		spec string
		want []float64
		bad  bool
	}{
		{"", []float64{1, 1}, false},
		{"ani=2, OP=0.5", []float64{2, 0.5}, false},
		{"OP=0", []float64{1, 0}, false},
		{"ANI", nil, true},     // not NAME=S
		{"XX=1", nil, true},    // unknown server
		{"OP=-1", nil, true},   // negative
		{"OP=NaN", nil, true},  // not a number
		{"OP=+Inf", nil, true}, // infinite
	} {
		got, err := ParseServiceTimes(c.spec, servers)
		if (err != nil) != c.bad || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseServiceTimes(%q) = %v, %v; want %v (error %v)", c.spec, got, err, c.want, c.bad)
		}
	}
}
