package queue

import (
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
)

// CentersTable is each center of r at N: kind, visits, service time,
// demand, utilization, queue length and residence time, in the spec's
// time unit. It costs one pass over the centers.
func (r *SpecResult) CentersTable() table.Table {
	t := table.Table{Header: []string{"center", "kind", "visits", "service_time", "demand", "utilization", "queue_length", "residence_time"}}
	for _, c := range r.Centers {
		t.Add(c.Name, c.Kind, ftoa(c.Visits), ftoa(c.ServiceTime), ftoa(c.Demand), ftoa(c.Utilization), ftoa(c.QueueLength), ftoa(c.ResidenceTime))
	}
	return t
}

// PopulationsTable is the throughput and response time of each population
// of r's SampledPopulations; it has no rows for Schweitzer's method. It
// costs one pass over the populations.
func (r *SpecResult) PopulationsTable() table.Table {
	t := table.Table{Header: []string{"population", "throughput", "response_time"}}
	for _, p := range r.SampledPopulations() {
		t.Add(strconv.Itoa(p.Population), ftoa(p.Throughput), ftoa(p.ResponseTime))
	}
	return t
}

// ftoa formats v with up to 6 significant digits, as the command does.
func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
