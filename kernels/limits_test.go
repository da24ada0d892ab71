package kernels

import (
	"errors"
	"testing"
	"time"
)

func TestCheckLimits(t *testing.T) {
	for _, tt := range []struct {
		budget, deadline time.Duration
		negative, over   bool
	}{
		{0, 0, false, false},
		{time.Minute, 0, false, false}, // no deadline: any budget
		{time.Minute, time.Minute, false, false},
		{time.Minute, 2 * time.Minute, false, false},
		{2 * time.Minute, time.Minute, false, true},
		{-time.Second, 0, true, false},
		{0, -time.Second, true, false},
		{-time.Second, -time.Minute, true, false},
	} {
		err := CheckLimits(tt.budget, tt.deadline)
		var be *BudgetError
		over := errors.As(err, &be)
		if errors.Is(err, ErrNegativeLimit) != tt.negative || over != tt.over || (err == nil) != (!tt.negative && !tt.over) {
			t.Errorf("budget %v, deadline %v: %v", tt.budget, tt.deadline, err)
		}
		if over && (be.Budget != tt.budget || be.Deadline != tt.deadline) {
			t.Errorf("budget %v, deadline %v: error holds %v, %v", tt.budget, tt.deadline, be.Budget, be.Deadline)
		}
	}
}
