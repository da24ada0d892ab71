// Package progress draws progress bars on a terminal for long loads,
// generations and sweeps, and stays silent everywhere else.
package progress

import (
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Bar is a progress bar fed by the (done, total) callbacks the library
// packages accept. The zero of enabled makes every method a no-op, so callers
// need not check whether output is a terminal.
type Bar struct {
	mu    sync.Mutex
	w     io.Writer
	desc  string
	bytes bool
	bar   *progressbar.ProgressBar
	on    bool
}

// New returns a bar with the description desc, drawn on w when enabled
// (callers pass whether w is a terminal). If bytes is true, counts are shown
// as byte sizes.
func New(w io.Writer, enabled bool, desc string, bytes bool) *Bar {
	return &Bar{w: w, desc: desc, bytes: bytes, on: enabled}
}

// Update is a func(done, total int64) callback; it is safe for concurrent use.
func (b *Bar) Update(done, total int64) {
	if b == nil || !b.on {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar == nil {
		b.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(b.w),
			progressbar.OptionSetDescription(b.desc),
			progressbar.OptionShowBytes(b.bytes),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish(),
		)
	}
	if total > 0 && total != b.bar.GetMax64() {
		b.bar.ChangeMax64(total)
	}
	b.bar.Set64(done)
}

// Func returns the callback form, or nil when the bar is disabled (library
// code skips progress work on nil).
func (b *Bar) Func() func(done, total int64) {
	if b == nil || !b.on {
		return nil
	}
	return b.Update
}

// Done removes the bar from the terminal.
func (b *Bar) Done() {
	if b == nil || !b.on {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		b.bar.Finish()
		b.bar.Clear()
		b.bar = nil
	}
}
