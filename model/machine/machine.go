package machine

import (
	"errors"
	"fmt"
	"slices"

	"github.com/graphperf/graphperf/model/queue"
)

// Kind says whether a machine is a GPU or a CPU.
type Kind string

// The machine kinds.
const (
	GPU Kind = "gpu"
	CPU Kind = "cpu"
)

// TransactionBytes is the size of one memory transaction: a 32-byte
// sector, the unit of L2 and DRAM traffic on NVIDIA GPUs since Kepler and
// of seed 001 §3.4's transaction roofline ("the bandwidth and transaction
// size for HBM2 are 732 GB/s and 32 bytes").
const TransactionBytes = 32

// Errors of Lookup and ServiceCurve.
var (
	ErrUnknownMachine = errors.New("machine: unknown machine")
	ErrNoCurve        = errors.New("machine: no service curve for this class")
)

// Machine is a machine file, parsed and validated. Fields a file leaves
// out are zero (nil for sections). GPU fields are zero for a CPU and CPU
// fields for a GPU.
type Machine struct {
	Name        string `json:"name"`
	Kind        Kind   `json:"kind"`
	Description string `json:"description,omitempty"`
	// File is where the machine was read from: the path given to Load, or
	// "h100.yaml" and the like for an embedded machine.
	File string `json:"file"`
	// Clock is the core clock; times given in cycles are converted with it.
	Clock Hertz `json:"clock_hz"`

	// SMs is the number of streaming multiprocessors.
	SMs int `json:"sms,omitempty"`
	// WarpsPerSM is the most warps resident on one SM.
	WarpsPerSM int `json:"warps_per_sm,omitempty"`
	// SchedulersPerSM is the number of warp schedulers per SM.
	SchedulersPerSM int `json:"schedulers_per_sm,omitempty"`
	// IPCPerScheduler is the warp instructions one scheduler issues per
	// cycle.
	IPCPerScheduler float64 `json:"ipc_per_scheduler,omitempty"`
	// L1 is the L1 cache of one SM; L2 the GPU's L2.
	L1 *Cache `json:"l1,omitempty"`
	L2 *Cache `json:"l2,omitempty"`
	// DRAM is the device memory.
	DRAM *DRAM `json:"dram,omitempty"`
	// Ceilings are measured throughputs.
	Ceilings Ceilings `json:"ceilings"`
	// Latencies are single-request latencies (a pointer chase).
	Latencies []Latency `json:"latencies,omitempty"`
	// ServiceCurves are the S_class(m) curves of seed 000 §6.5, in file
	// order.
	ServiceCurves []ServiceCurve `json:"service_curves,omitempty"`

	// Sockets, CoresPerSocket and ThreadsPerCore size a CPU.
	Sockets        int `json:"sockets,omitempty"`
	CoresPerSocket int `json:"cores_per_socket,omitempty"`
	ThreadsPerCore int `json:"threads_per_core,omitempty"`
	// Caches are a CPU's cache levels, nearest the core first.
	Caches []Cache `json:"caches,omitempty"`

	// Sources maps the path of every value the file sets ("clock",
	// "l2.size", "service_curves[0].points") to its source note: its own,
	// else its section's, else the file's. Values without any note are
	// absent.
	Sources map[string]string `json:"sources,omitempty"`
}

// Cache is a GPU's L1 or L2, or one level of a CPU's hierarchy.
// Size = Slices x Sets x Ways x Line where all are given.
type Cache struct {
	// Name is "L1", "L2", "L3" for a CPU level; empty on a GPU.
	Name   string `json:"name,omitempty"`
	Size   Bytes  `json:"size_bytes"`
	Line   Bytes  `json:"line_bytes"`
	Sector Bytes  `json:"sector_bytes,omitempty"`
	Ways   int    `json:"ways,omitempty"`
	// Sets is per slice; derived from the size when the file gives ways
	// but not sets.
	Sets   int `json:"sets,omitempty"`
	Slices int `json:"slices,omitempty"`
	// Carveout is the part of a GPU L1's Size that the driver gives to
	// shared memory in the BFS kernels' launches; the L1 caches Size -
	// Carveout (L1Bytes).
	Carveout Bytes `json:"carveout_bytes,omitempty"`
	// SharedBy is the number of cores sharing a CPU level.
	SharedBy int `json:"shared_by,omitempty"`
	// Service is a CPU level's service time per access (seed 000 §5), and
	// ServiceCycles the same in cycles of the machine's clock.
	Service       Nanoseconds `json:"service_ns,omitempty"`
	ServiceCycles float64     `json:"service_cycles,omitempty"`
}

// DRAM is a GPU's device memory.
type DRAM struct {
	Type     string `json:"type,omitempty"` // "HBM3", "GDDR5"
	Size     Bytes  `json:"size_bytes,omitempty"`
	BusBits  int    `json:"bus_bits,omitempty"`
	Clock    Hertz  `json:"clock_hz,omitempty"` // memory clock
	Channels int    `json:"channels,omitempty"`
	// PseudoChannels is the independent pseudo-channels of one channel
	// (2 for HBM3); 0 means the channel is not split.
	PseudoChannels int `json:"pseudo_channels,omitempty"`
	// Banks is per channel, or per pseudo-channel where PseudoChannels is
	// set.
	Banks int `json:"banks,omitempty"`
	// RowBytes is the row (page) that one activation opens.
	RowBytes Bytes `json:"row_bytes,omitempty"`
	// Interleave is the run of consecutive addresses that one
	// (pseudo-)channel holds before the next channel's; it divides
	// RowBytes.
	Interleave    Bytes          `json:"interleave_bytes,omitempty"`
	PeakBandwidth BytesPerSecond `json:"peak_bandwidth_bytes_per_s"`
}

// Ceilings are measured throughput limits; zero where not measured.
type Ceilings struct {
	ReadBandwidth  BytesPerSecond `json:"read_bandwidth_bytes_per_s,omitempty"`
	WriteBandwidth BytesPerSecond `json:"write_bandwidth_bytes_per_s,omitempty"`
	// CopyBandwidth counts the bytes read plus the bytes written.
	CopyBandwidth BytesPerSecond `json:"copy_bandwidth_bytes_per_s,omitempty"`
	// L2Bandwidth is the read bandwidth of an L2-resident working set.
	L2Bandwidth BytesPerSecond `json:"l2_bandwidth_bytes_per_s,omitempty"`
	// WarpInstructions is the measured warp instruction throughput of
	// independent FFMAs: the issue limit.
	WarpInstructions InstructionRate `json:"warp_instructions_per_s,omitempty"`
	// WarpInstructionsInteger is the same for integer adds.
	WarpInstructionsInteger InstructionRate `json:"warp_instructions_integer_per_s,omitempty"`
}

// L1Bytes returns the bytes a GPU L1 caches, Size - Carveout.
func (c *Cache) L1Bytes() Bytes { return c.Size - c.Carveout }

// IndependentChannels returns the channels that work independently,
// Channels x PseudoChannels (Channels where PseudoChannels is 0).
func (d *DRAM) IndependentChannels() int { return d.Channels * max(d.PseudoChannels, 1) }

// OpenRows returns the rows that can be open at once, one per bank:
// IndependentChannels x Banks.
func (d *DRAM) OpenRows() int { return d.IndependentChannels() * d.Banks }

// Latency is the time of one request with nothing else in flight.
type Latency struct {
	Name string      `json:"name"` // "l2_hit", "dram"
	Time Nanoseconds `json:"time_ns"`
	// WorkingSet is the pointer chase's working set, where it matters.
	WorkingSet Bytes `json:"working_set_bytes,omitempty"`
}

// CurveForm says what the times of a ServiceCurve's points are.
type CurveForm string

// The curve forms; see the queue package documentation.
const (
	// ServiceForm points are (m, S(m)): time per request with m in flight.
	ServiceForm CurveForm = "service"
	// LatencyForm points are (m, L(m)): the time of one request with m in
	// flight, L(m) = m S(m).
	LatencyForm CurveForm = "latency"
)

// Point is one measured point of a curve: m requests in flight, time Time.
type Point struct {
	MLP  float64     `json:"mlp"`
	Time Nanoseconds `json:"time_ns"`
}

// ServiceCurve is the service time of one class of memory request as a
// function of memory-level parallelism m (seed 000 §6.5, figure 6).
type ServiceCurve struct {
	// Class is "l2_hit", "dram_row_hit", "dram_row_miss" or another name.
	Class string    `json:"class"`
	Form  CurveForm `json:"form"`
	// Points have strictly increasing MLP.
	Points []Point `json:"points"`
}

// Curve returns the queue.Curve through the points: NewServiceTimeCurve
// for ServiceForm, NewLatencyCurve for LatencyForm. Times are in ns.
func (c ServiceCurve) Curve() (*queue.Curve, error) {
	pts := make([]queue.CurvePoint, len(c.Points))
	for i, p := range c.Points {
		pts[i] = queue.CurvePoint{MLP: p.MLP, Time: float64(p.Time)}
	}
	if c.Form == LatencyForm {
		return queue.NewLatencyCurve(pts)
	}
	return queue.NewServiceTimeCurve(pts)
}

// ServiceTime returns S(m) in ns (see queue.Curve.ServiceTime).
func (c ServiceCurve) ServiceTime(m float64) (Nanoseconds, error) {
	qc, err := c.Curve()
	if err != nil {
		return 0, err
	}
	return Nanoseconds(qc.ServiceTime(m)), nil
}

// Classes returns the classes of the machine's service curves, in file
// order.
func (m *Machine) Classes() []string {
	var cs []string
	for _, c := range m.ServiceCurves {
		cs = append(cs, c.Class)
	}
	return cs
}

// ServiceCurve returns class's S(m) curve in ns, ready for a queue.Center's
// ServiceAt: S(m) = L(m)/m (queue package documentation). The error wraps
// ErrNoCurve when the machine has no such curve.
func (m *Machine) ServiceCurve(class string) (*queue.Curve, error) {
	i := slices.IndexFunc(m.ServiceCurves, func(c ServiceCurve) bool { return c.Class == class })
	if i < 0 {
		return nil, fmt.Errorf("%w: %s has no curve %q (it has %v)", ErrNoCurve, m.Name, class, m.Classes())
	}
	return m.ServiceCurves[i].Curve()
}

// PhysicalWarps returns the warps the GPU holds at once, SMs x WarpsPerSM:
// the most jobs in service (seed 000 §6.5: "960 on the Tesla K40c", 15 SMs
// x 64 warps). Zero for a CPU.
func (m *Machine) PhysicalWarps() int { return m.SMs * m.WarpsPerSM }

// Cores returns a CPU's cores, Sockets x CoresPerSocket; zero for a GPU.
func (m *Machine) Cores() int { return m.Sockets * m.CoresPerSocket }

// WarpGIPSPeak returns the issue-limited warp instruction throughput in
// warp instructions per second,
//
//	SMs x SchedulersPerSM x IPCPerScheduler x Clock,
//
// the instruction roofline's compute ceiling (seed 001 §3.4: P100 56 x 2 x 1
// x 1.328 GHz = 148.7e9). Zero for a CPU.
func (m *Machine) WarpGIPSPeak() InstructionRate {
	return InstructionRate(float64(m.SMs*m.SchedulersPerSM) * m.IPCPerScheduler * float64(m.Clock))
}

// TransactionsPerSecond returns bw / TransactionBytes, the transaction
// roofline's memory ceiling (seed 001 §3.4: 732 GB/s / 32 B = 22.875e9
// transactions per second).
func TransactionsPerSecond(bw BytesPerSecond) float64 {
	return float64(bw) / TransactionBytes
}

// RidgePoint returns the instruction intensity, in warp instructions per
// 32-byte transaction, where the compute ceiling meets the memory ceiling
// of bandwidth bw: WarpGIPSPeak / TransactionsPerSecond(bw) (seed 001 §3.4:
// 148.7 / 22.875 = 6.50 on the P100). Zero when bw is zero.
func (m *Machine) RidgePoint(bw BytesPerSecond) float64 {
	if bw <= 0 {
		return 0
	}
	return float64(m.WarpGIPSPeak()) / TransactionsPerSecond(bw)
}
