package predict_test

import (
	"fmt"

	"github.com/graphperf/graphperf/model/predict"
)

func ExampleParseSeeds() {
	r, _ := predict.ParseSeeds("1-4")
	l, _ := predict.ParseSeeds("7, 3")
	_, err := predict.ParseSeeds("4-1")
	fmt.Println(r, l)
	fmt.Println(err)
	// Output:
	// [1 2 3 4] [7 3]
	// "4-1": want a range LOW-HIGH of at most 1000 seeds
}

func ExampleOnlyFamilies() {
	splits := []predict.Split{{Name: "family-rmat"}, {Name: "family-road"}, {Name: "family-real"}}
	kept, _ := predict.OnlyFamilies(splits, []string{"real", "road"})
	fmt.Println(kept[0].Name, kept[1].Name)
	_, err := predict.OnlyFamilies(splits, []string{"ws"})
	fmt.Println(err)
	// Output:
	// family-real family-road
	// no family "ws" (the data's: rmat, road, real)
}
