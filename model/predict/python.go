package predict

import "os"

// Python is the python interpreter the scikit-learn baseline runs with
// (RunBaseline, FindBaseline): $GRAPHPERF_PYTHON when set, else
// /usr/bin/python3 when it exists, else "python3" from $PATH. It costs one
// stat.
func Python() string {
	if p := os.Getenv("GRAPHPERF_PYTHON"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	return "python3"
}
