package dist

import (
	"bytes"
	"testing"
)

// FuzzParseAllToAll: any input gives a validated AllToAll or an error,
// never a panic; every fit it returns has β > 0 and α >= 0.
func FuzzParseAllToAll(f *testing.F) {
	f.Add([]byte(`{"format":"graphperf-alltoall/1","provenance":{"gpu":"g","nccl":"2","date":"d"},"fits":[{"ranks":2,"alpha_us":1,"beta_gb_s":1}]}`))
	f.Add([]byte("{\"type\":\"alltoall_device\",\"gpu\":\"g\",\"nccl\":\"2\",\"date\":\"d\"}\n{\"type\":\"alltoall\",\"ranks\":2,\"bytes_per_pair\":1024,\"median_us\":5}\n{\"type\":\"alltoall\",\"ranks\":2,\"bytes_per_pair\":2048,\"median_us\":6}\n"))
	f.Add([]byte("{\"type\":\"alltoall\",\"ranks\":2,\"bytes_per_pair\":0,\"median_us\":1e308}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseAllToAll(data)
		if err != nil {
			return
		}
		for _, fit := range a.Fits {
			if !(fit.BetaGBs > 0) || !(fit.AlphaUs >= 0) {
				t.Fatalf("accepted fit %+v", fit)
			}
		}
	})
}

// FuzzReadPredictions: any input is read or refused, never a panic.
func FuzzReadPredictions(f *testing.F) {
	f.Add([]byte("# graphperf-dist-predictions/1\n# graph scale=1 source=s vertices=2 edges=2 root=0 depth_hash=0 levels=1\nscale,procs,level,src,dst,raw,unique,bytes_su\n1,2,1,0,1,1,1,4\n"))
	f.Add([]byte("# graphperf-dist-predictions/1\nscale,procs,level,src,dst,raw,unique,bytes_su\n1,2,1,0,1,\"1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, pairs, err := ReadPredictions(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, p := range pairs {
			if p.Src == p.Dst || p.Unique > p.Raw {
				t.Fatalf("accepted %+v", p)
			}
		}
	})
}
