package predict

import (
	"os"
	"testing"
)

func TestPython(t *testing.T) {
	t.Setenv("GRAPHPERF_PYTHON", "/opt/py/bin/python3.12")
	if got := Python(); got != "/opt/py/bin/python3.12" {
		t.Errorf("with GRAPHPERF_PYTHON: %q", got)
	}
	t.Setenv("GRAPHPERF_PYTHON", "")
	want := "python3"
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		want = "/usr/bin/python3"
	}
	if got := Python(); got != want {
		t.Errorf("without GRAPHPERF_PYTHON: %q, want %q", got, want)
	}
}
