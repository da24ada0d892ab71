package store

import (
	"github.com/graphperf/graphperf/kernels"
)

// The store reads runner output with kernels.Reader, which decodes every
// line by the format's declaration (kernels.RecordKinds): the store has
// no decoder of its own, so what it stores is what every other reader of
// the format reads.

// lineRecord is a record and its line.
type lineRecord struct {
	rec  kernels.Record
	line int
}

// recordBatch is the next records of a file; err, in the last batch, is
// the error that ended the reading (nil at a clean end).
type recordBatch struct {
	recs []lineRecord
	err  error
}

// asyncReader decodes a file in its own goroutine and hands the records
// over in batches, in order.
type asyncReader struct {
	batches  chan recordBatch
	done     chan struct{} // closed by stop: the reader is not wanted
	finished chan struct{} // closed when the goroutine has returned
}

// recordBatchSize is the records per batch: enough that the hand-over
// costs nothing, few enough that both goroutines start at once.
const recordBatchSize = 256

// decodeAsync reads rd in a new goroutine. The caller ranges over batches
// and must call stop when done, read to the end or not.
func decodeAsync(rd *kernels.Reader) *asyncReader {
	a := &asyncReader{batches: make(chan recordBatch, 8), done: make(chan struct{}), finished: make(chan struct{})}
	go func() {
		defer close(a.finished)
		defer close(a.batches)
		send := func(b recordBatch) bool {
			select {
			case a.batches <- b:
				return true
			case <-a.done:
				return false
			}
		}
		batch := make([]lineRecord, 0, recordBatchSize)
		for rd.Next() {
			batch = append(batch, lineRecord{rd.Record(), rd.Line()})
			if len(batch) == cap(batch) {
				if !send(recordBatch{recs: batch}) {
					return
				}
				batch = make([]lineRecord, 0, recordBatchSize)
			}
		}
		send(recordBatch{recs: batch, err: rd.Err()})
	}()
	return a
}

// stop ends the goroutine and waits for it.
func (a *asyncReader) stop() {
	close(a.done)
	<-a.finished
}
