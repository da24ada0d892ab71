package port

import (
	"regexp"
	"strings"
)

// modelNumber is a GPU's model number in its device name: "H100" of
// "NVIDIA H100 80GB HBM3".
var modelNumber = regexp.MustCompile(`\b[A-Z]+[0-9]{2,}[A-Za-z]*\b`)

// ShortNames returns a short name of every platform: the model number of
// its device name ("H100" of "NVIDIA H100 80GB HBM3") when every platform
// has one and no two share it, else the platforms themselves.
func ShortNames(platforms []string) []string {
	out := make([]string, len(platforms))
	seen := map[string]bool{}
	for i, p := range platforms {
		out[i] = modelNumber.FindString(p)
		if out[i] == "" || seen[out[i]] {
			return platforms
		}
		seen[out[i]] = true
	}
	return out
}

// Legend says what the ShortNames of platforms stand for:
// "H100 = NVIDIA H100 80GB HBM3, H200 = NVIDIA H200", a platform whose
// short name is itself standing alone.
func Legend(platforms []string) string {
	short := ShortNames(platforms)
	parts := make([]string, len(platforms))
	for i, p := range platforms {
		parts[i] = p
		if short[i] != p {
			parts[i] = short[i] + " = " + p
		}
	}
	return strings.Join(parts, ", ")
}
