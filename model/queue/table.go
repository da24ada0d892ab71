package queue

import (
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
)

// CentersTable is each center of r at N: kind, visits, service time,
// demand, utilization, queue length and residence time, in the spec's
// time unit. It costs one pass over the centers.
func (r *SpecResult) CentersTable() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("center"), table.TextCol("kind"), table.NumCol("visits", ""), table.NumCol("service_time", "time unit"),
		table.NumCol("demand", "time unit"), table.NumCol("utilization", ""), table.NumCol("queue_length", "jobs"),
		table.NumCol("residence_time", "time unit"))
	for _, c := range r.Centers {
		t.Add(c.Name, c.Kind, table.G6(c.Visits), table.G6(c.ServiceTime), table.G6(c.Demand), table.G6(c.Utilization), table.G6(c.QueueLength), table.G6(c.ResidenceTime))
	}
	return t
}

// PopulationsTable is the throughput and response time of each population
// of r's SampledPopulations; it has no rows for Schweitzer's method. It
// costs one pass over the populations.
func (r *SpecResult) PopulationsTable() table.Table {
	var t table.Table
	t.AddColumns(table.IntCol("population", "jobs"), table.NumCol("throughput", "jobs per time unit"), table.NumCol("response_time", "time unit"))
	for _, p := range r.SampledPopulations() {
		t.Add(strconv.Itoa(p.Population), table.G6(p.Throughput), table.G6(p.ResponseTime))
	}
	return t
}
