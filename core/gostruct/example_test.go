package gostruct_test

import (
	"context"
	"fmt"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/core/gostruct"
)

type weatherArgs struct {
	City string `json:"city"`
	Days int    `json:"days,omitempty"`
}

// The typed path validates and normalises arguments before the call: "3"
// becomes 3 and the conversion is reported.
func ExampleTool() {
	tool, err := gostruct.Tool("forecast", func(ctx context.Context, in weatherArgs) (string, error) {
		return fmt.Sprintf("%s for %d days", in.City, in.Days), nil
	})
	if err != nil {
		panic(err)
	}
	m := core.NewManager(nil)
	_ = m.Register(tool, false)
	fc, err := m.MatchJSON([]byte(`{"function":"forecast","arguments":{"city":"Oslo","days":"3"}}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(len(fc.Conversions), "conversion")
	fc.Invoke(context.Background())
	fmt.Println(fc.Response)
	// Output:
	// 1 conversion
	// Oslo for 3 days
}
