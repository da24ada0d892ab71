package queue

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Spec is a closed single-class network to solve by MVA, as a YAML spec
// gives it (times in one unit of the caller's choice):
//
//	population: 3            # N, jobs in the closed network
//	think_time: 15           # Z, in the time unit of the service times (0 if absent)
//	method: exact            # exact (default) | schweitzer
//	centers:
//	  - {name: cpu, demand: 0.605}                    # D_k = V_k S_k
//	  - {name: disk1, visits: 10, service_time: 0.21} # or V_k and S_k (visits default to 1)
//	  - {name: net, kind: delay, demand: 1.0}         # kind: queueing (default) | delay
type Spec struct {
	// File names the spec in errors and results.
	File string
	// Population is N; Method is MethodExact or MethodSchweitzer.
	Population int
	Method     string
	Network    Network
}

// The methods of a Spec.
const (
	MethodExact      = "exact"
	MethodSchweitzer = "schweitzer"
)

// specYAML is the spec's top level, decoded with KnownFields; the
// values stay nodes, for their lines.
type specYAML struct {
	Population yaml.Node   `yaml:"population"`
	ThinkTime  yaml.Node   `yaml:"think_time"`
	Method     yaml.Node   `yaml:"method"`
	Centers    []yaml.Node `yaml:"centers"`
}

// MaxExactPopulation bounds exact MVA in a Spec, which keeps every population's
// result (O(N K) memory).
const MaxExactPopulation = 100000

// specError is a bad spec: file:line: field: message.
func specError(file string, line int, field, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	if line > 0 {
		return fmt.Errorf("%s:%d: %s", file, line, msg)
	}
	return fmt.Errorf("%s: %s", file, msg)
}

var (
	specYAMLLine    = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	specUnknown     = regexp.MustCompile(`^field (\S+) not found in type`)
	specCannot      = regexp.MustCompile(`^cannot unmarshal (!!\w+).* into (\S+)$`)
	specTopLevelKey = "population, think_time, method, centers"
)

// ParseSpec reads and checks a spec (see Spec's YAML above); errors name
// file, line and field: "s.yaml:3: centers[0].demand: want a non-negative
// number, got \"-1\"".
func ParseSpec(data []byte, file string) (*Spec, error) {
	var raw specYAML
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil {
		if err == io.EOF {
			return nil, specError(file, 0, "", "empty file: want population and centers")
		}
		return nil, specYAMLError(file, err)
	}
	s := &Spec{File: file, Method: MethodExact}
	n, err := specNumber(file, "population", &raw.Population, true)
	if err != nil {
		return nil, err
	}
	if n != math.Trunc(n) || n < 1 || n > math.MaxInt32 {
		return nil, specError(file, raw.Population.Line, "population", "want a positive integer, got %q", raw.Population.Value)
	}
	s.Population = int(n)
	if s.Network.ThinkTime, err = specNumber(file, "think_time", &raw.ThinkTime, false); err != nil {
		return nil, err
	}
	if raw.Method.Kind != 0 {
		s.Method = raw.Method.Value
		if raw.Method.Kind != yaml.ScalarNode || (s.Method != MethodExact && s.Method != MethodSchweitzer) {
			return nil, specError(file, raw.Method.Line, "method", "want exact or schweitzer, got %s", nodeText(&raw.Method))
		}
	}
	if s.Method == MethodExact && s.Population > MaxExactPopulation {
		return nil, specError(file, raw.Population.Line, "population", "%d is too many jobs for exact MVA (at most %d); use method: schweitzer", s.Population, MaxExactPopulation)
	}
	if len(raw.Centers) == 0 {
		return nil, specError(file, 0, "centers", "missing: want a list of centers, each {name, demand} or {name, visits, service_time}")
	}
	seen := map[string]int{}
	for i := range raw.Centers {
		c, err := specCenter(file, i, &raw.Centers[i])
		if err != nil {
			return nil, err
		}
		if j, dup := seen[c.Name]; dup {
			return nil, specError(file, raw.Centers[i].Line, fmt.Sprintf("centers[%d].name", i), "%q is also the name of centers[%d]", c.Name, j)
		}
		seen[c.Name] = i
		s.Network.Centers = append(s.Network.Centers, c)
	}
	return s, nil
}

// ReadSpec reads and parses the spec in file (ParseSpec). An error reading
// the file is os.ReadFile's, unwrapped ("open s.yaml: no such file or
// directory").
func ReadSpec(file string) (*Spec, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return ParseSpec(data, file)
}

// SolveFile reads the spec in file (ReadSpec) and solves it (Spec.Solve).
func SolveFile(file string) (*SpecResult, error) {
	s, err := ReadSpec(file)
	if err != nil {
		return nil, err
	}
	return s.Solve()
}

// specYAMLError rewrites the yaml package's errors with the spec's name.
func specYAMLError(file string, err error) error {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	m := specYAMLLine.FindStringSubmatch(strings.TrimPrefix(msgs[0], "yaml: "))
	if m == nil {
		return specError(file, 0, "", "%s", strings.TrimPrefix(msgs[0], "yaml: "))
	}
	line, _ := strconv.Atoi(m[1])
	if f := specUnknown.FindStringSubmatch(m[2]); f != nil {
		return specError(file, line, f[1], "unknown field (want one of %s)", specTopLevelKey)
	}
	if f := specCannot.FindStringSubmatch(m[2]); f != nil && f[2] == "[]yaml.Node" {
		return specError(file, line, "centers", "want a list, got %s", tagWord(f[1]))
	}
	if f := specCannot.FindStringSubmatch(m[2]); f != nil && f[2] == "queue.specYAML" {
		return specError(file, line, "", "want a mapping of %s, got %s", specTopLevelKey, tagWord(f[1]))
	}
	return specError(file, line, "", "%s", m[2])
}

func tagWord(tag string) string {
	switch tag {
	case "!!map":
		return "a mapping"
	case "!!seq":
		return "a list"
	}
	return "a scalar"
}

func nodeText(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		return strconv.Quote(n.Value)
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return "nothing"
}

// specNumber parses a non-negative number; absent gives 0 (an error if
// required).
func specNumber(file, field string, n *yaml.Node, required bool) (float64, error) {
	if n.Kind == 0 {
		if required {
			return 0, specError(file, 0, field, "missing")
		}
		return 0, nil
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	v, err := strconv.ParseFloat(n.Value, 64)
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!str" || err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, specError(file, n.Line, field, "want a non-negative number, got %s", nodeText(n))
	}
	return v, nil
}

// specCenter parses centers[i].
func specCenter(file string, i int, n *yaml.Node) (Center, error) {
	path := fmt.Sprintf("centers[%d]", i)
	c := Center{Kind: Queueing, Visits: 1}
	if n.Kind != yaml.MappingNode {
		return c, specError(file, n.Line, path, "want a mapping {name, demand} or {name, visits, service_time}, got %s", nodeText(n))
	}
	fields := map[string]*yaml.Node{}
	for j := 0; j+1 < len(n.Content); j += 2 {
		k, v := n.Content[j], n.Content[j+1]
		if !slices.Contains([]string{"name", "kind", "demand", "visits", "service_time"}, k.Value) {
			return c, specError(file, k.Line, path+"."+k.Value, "unknown field (want one of name, kind, demand, visits, service_time)")
		}
		fields[k.Value] = v
	}
	name := fields["name"]
	if name == nil || name.Kind != yaml.ScalarNode || name.Value == "" {
		return c, specError(file, n.Line, path+".name", "missing: every center needs a name")
	}
	c.Name = name.Value
	if k := fields["kind"]; k != nil {
		switch k.Value {
		case "queueing":
		case "delay":
			c.Kind = Delay
		default:
			return c, specError(file, k.Line, path+".kind", "want queueing or delay, got %s", nodeText(k))
		}
	}
	number := func(field string) (float64, bool, error) {
		v := fields[field]
		if v == nil {
			return 0, false, nil
		}
		x, err := specNumber(file, path+"."+field, v, false)
		return x, true, err
	}
	demand, hasDemand, err := number("demand")
	if err != nil {
		return c, err
	}
	visits, hasVisits, err := number("visits")
	if err != nil {
		return c, err
	}
	service, hasService, err := number("service_time")
	if err != nil {
		return c, err
	}
	switch {
	case hasDemand && (hasVisits || hasService):
		return c, specError(file, fields["demand"].Line, path+".demand", "give demand, or visits and service_time, not both")
	case hasDemand:
		c.Service = demand
	case hasService:
		c.Service = service
		if hasVisits {
			c.Visits = visits
		}
	case hasVisits:
		return c, specError(file, fields["visits"].Line, path+".service_time", "missing: visits needs a service_time")
	default:
		return c, specError(file, n.Line, path+".demand", "missing: give demand, or visits and service_time")
	}
	return c, nil
}

// SpecCenter is one center of a solved Spec at its population.
type SpecCenter struct {
	Name          string  `json:"name"`
	Kind          string  `json:"kind"`
	Visits        float64 `json:"visits"`
	ServiceTime   float64 `json:"service_time"`
	Demand        float64 `json:"demand"`
	Throughput    float64 `json:"throughput"`
	Utilization   float64 `json:"utilization"`
	QueueLength   float64 `json:"queue_length"`
	ResidenceTime float64 `json:"residence_time"`
	ResponseTime  float64 `json:"response_time_per_visit"`
}

// SpecPopulation is the throughput and response time at one population
// of exact MVA.
type SpecPopulation struct {
	Population   int     `json:"population"`
	Throughput   float64 `json:"throughput"`
	ResponseTime float64 `json:"response_time"`
}

// SpecResult is a solved Spec: the throughput X (jobs per time unit) and
// response time R (think time excluded) at N, each center at N, and with
// exact MVA every population 1..N.
type SpecResult struct {
	File         string           `json:"file"`
	Method       string           `json:"method"`
	Population   int              `json:"population"`
	ThinkTime    float64          `json:"think_time"`
	Throughput   float64          `json:"throughput"`
	ResponseTime float64          `json:"response_time"`
	Centers      []SpecCenter     `json:"centers"`
	Populations  []SpecPopulation `json:"populations,omitempty"`
}

// Solve solves s by its method: MVA for every population 1..N (O(N K)
// time and memory for K centers), or Schweitzer at N.
func (s *Spec) Solve() (*SpecResult, error) {
	var final Result
	var pops []Result
	if s.Method == MethodExact {
		sol, err := MVA(s.Network, s.Population)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.File, err)
		}
		final, pops = sol.Final(), sol.Populations[1:]
	} else {
		var err error
		if final, err = Schweitzer(s.Network, s.Population, nil); err != nil {
			return nil, fmt.Errorf("%s: %w", s.File, err)
		}
	}
	out := &SpecResult{
		File: s.File, Method: s.Method, Population: s.Population, ThinkTime: s.Network.ThinkTime,
		Throughput: final.Throughput, ResponseTime: final.ResponseTime,
	}
	for k, c := range s.Network.Centers {
		r := final.Centers[k]
		out.Centers = append(out.Centers, SpecCenter{
			Name: c.Name, Kind: c.Kind.String(), Visits: c.Visits, ServiceTime: c.Service, Demand: c.Demand(),
			Throughput: r.Throughput, Utilization: r.Utilization, QueueLength: r.QueueLength,
			ResidenceTime: r.Residence, ResponseTime: r.ResponseTime,
		})
	}
	for _, p := range pops {
		out.Populations = append(out.Populations, SpecPopulation{p.Population, p.Throughput, p.ResponseTime})
	}
	return out, nil
}

// MethodTitle names r's method in words: "exact MVA" or "Schweitzer's
// approximate MVA".
func (r *SpecResult) MethodTitle() string {
	if r.Method == MethodSchweitzer {
		return "Schweitzer's approximate MVA"
	}
	return "exact MVA"
}

// SampledPopulations returns the populations of r that a table of a long
// solution shows: every population up to 25, then the powers of two and
// N itself. Empty for Schweitzer's method, which solves N alone.
func (r *SpecResult) SampledPopulations() []SpecPopulation {
	var rows []SpecPopulation
	for _, p := range r.Populations {
		if n := p.Population; n <= 25 || n&(n-1) == 0 || n == r.Population {
			rows = append(rows, p)
		}
	}
	return rows
}
