package portability

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestReadCSV(t *testing.T) {
	in := `# table 5.5 of seed 002 as application efficiency against its fastest row
Platform,Application,Efficiency,note
gpu,unmodified,0.067357,
cpu,unmodified,0.556095,
gpu,v1,0.860569,direction-optimizing
cpu,v1,0.309190,
gpu,opencl-only,1
cpu,opencl-only,unsupported
gpu,cuda-only,1
`
	records, err := ReadCSV(strings.NewReader(in), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 7 || records[0] != (Record{"unmodified", "gpu", 0.067357, 3}) || records[5].Efficiency != 0 {
		t.Fatalf("records %+v", records)
	}
	apps, err := ByApplication(records, nil)
	if err != nil {
		t.Fatal(err)
	}
	// PP values of TestPPTable55; opencl-only and cuda-only are unsupported
	// on the CPU (one says so, the other has no row): 0.
	want := []struct {
		name string
		pp   float64
	}{{"unmodified", 0.120159}, {"v1", 0.454930}, {"opencl-only", 0}, {"cuda-only", 0}}
	if len(apps) != len(want) {
		t.Fatalf("%d applications, want %d", len(apps), len(want))
	}
	for i, w := range want {
		a := apps[i]
		if a.Name != w.name || math.Abs(a.PP-w.pp) > 1e-5 || strings.Join(a.Platforms, ",") != "gpu,cpu" {
			t.Errorf("application %d: %+v, want %s PP %v over gpu,cpu", i, a, w.name, w.pp)
		}
	}
	if strings.Join(apps[3].Unsupported, ",") != "cpu" {
		t.Errorf("cuda-only unsupported %v, want cpu", apps[3].Unsupported)
	}
	// An explicit H: the GPU alone.
	apps, err = ByApplication(records, []string{"gpu"})
	if err != nil || apps[2].PP != 1 || apps[3].PP != 1 || len(apps[2].Warnings) != 0 || len(apps[0].Warnings) != 0 {
		t.Errorf("H = {gpu}: %+v, %v", apps, err)
	}
}

// TestReadCSVErrors checks that bad tables name the file, line and column.
func TestReadCSVErrors(t *testing.T) {
	const header = "application,platform,efficiency\n"
	tests := []struct{ in, want string }{
		{"", "x.csv: empty file: want a header application,platform,efficiency"},
		{"app,platform,efficiency\n", `x.csv:1: no application column: want a header naming application, platform and efficiency, got "app,platform,efficiency"`},
		{"application,platform,efficiency,platform\n", "x.csv:1: platform: column named twice"},
		{header + "bfs,gpu,0.5\nbfs,cpu,fast\n", `x.csv:3: efficiency: want a number that is not negative, empty or "unsupported", got "fast"`},
		{header + "bfs,gpu,-0.5\n", `x.csv:2: efficiency: want a number that is not negative, empty or "unsupported", got "-0.5"`},
		{header + "bfs,gpu,NaN\n", `x.csv:2: efficiency: want a number that is not negative, empty or "unsupported", got "NaN"`},
		{header + "bfs,gpu,Inf\n", `x.csv:2: efficiency: want a number that is not negative, empty or "unsupported", got "Inf"`},
		{header + "bfs,gpu\n", "x.csv:2: efficiency: row has 2 fields, the header 3"},
		{header + ",gpu,1\n", "x.csv:2: application: empty"},
		{header + "bfs, ,1\n", "x.csv:2: platform: empty"},
		{header + "bfs,gpu,0.5\n# comment\nbfs,gpu,0.6\n", "x.csv:4: bfs on gpu is already on line 2"},
		{header + "bfs,\"gpu,1\n", `x.csv:2: not CSV: extraneous or missing " in quoted-field`},
	}
	for _, tt := range tests {
		_, err := ReadCSV(strings.NewReader(tt.in), "x.csv")
		var pe *ParseError
		if err == nil || err.Error() != tt.want || !errors.As(err, &pe) {
			t.Errorf("input %q:\n  error %v\n  want  %s", tt.in, err, tt.want)
		}
	}
	if _, err := ReadCSV(strings.NewReader(header+"# nothing\n"), "x.csv"); !errors.Is(err, ErrNoRecords) {
		t.Errorf("no rows: %v", err)
	}
	if _, err := ByApplication([]Record{{"a", "b", -1, 7}}, nil); !errors.Is(err, ErrEfficiency) || !strings.HasPrefix(err.Error(), "line 7: ") {
		t.Errorf("negative record: %v", err)
	}
	if _, err := ByApplication([]Record{{"a", "b", 1, 2}}, []string{"b", "b"}); !errors.Is(err, ErrPlatform) || err.Error() != `portability: platform listed twice or unnamed: "b"` {
		t.Errorf("bad H: %v", err)
	}
}

// FuzzReadCSV checks that the reader never panics and that every table it
// accepts has a PP in [0, max efficiency] per application.
func FuzzReadCSV(f *testing.F) {
	f.Add("application,platform,efficiency\nbfs,gpu,0.5\nbfs,cpu,1\n")
	f.Add("platform,efficiency,application\ngpu,,bfs\n")
	f.Add("application,platform,efficiency\nbfs,\"gpu\n")
	f.Fuzz(func(t *testing.T, in string) {
		records, err := ReadCSV(strings.NewReader(in), "f.csv")
		if err != nil {
			return
		}
		apps, err := ByApplication(records, nil)
		if err != nil {
			t.Fatalf("accepted table fails ByApplication: %v", err)
		}
		for _, a := range apps {
			top := 0.0
			for _, e := range a.Efficiencies {
				top = math.Max(top, e)
			}
			if !(a.PP >= 0 && a.PP <= top*(1+1e-12)) {
				t.Fatalf("%s: PP %v outside [0, %v]", a.Name, a.PP, top)
			}
		}
	})
}
