package gostruct

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

type typedIn struct {
	City  string `json:"city"`
	Days  int    `json:"days,omitempty"`
	Units string `json:"units,omitempty"`
}

func TestTool(t *testing.T) {
	tool, err := Tool("forecast", func(ctx context.Context, in typedIn) (string, error) {
		if in.City == "" {
			return "", errors.New("no city")
		}
		return in.City + "/" + in.Units, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "forecast", tool.Function())
	assert.NotEmpty(t, tool.RequestOptions, "a typed tool has request options")
	assert.Equal(t, []string{"city"}, tool.MinimumAcceptableFields())

	got, err := tool.Callable.Call(context.Background(), argsOf(t, `{"city":"Oslo","units":"C"}`))
	require.NoError(t, err)
	assert.Equal(t, "Oslo/C", got)

	_, err = tool.Callable.Call(context.Background(), argsOf(t, `{"city":5}`))
	assert.ErrorIs(t, err, core.ErrInvalidArguments)

	_, err = tool.Callable.Call(context.Background(), argsOf(t, `{}`))
	assert.EqualError(t, err, "no city", "the function's own error is returned as is")

	got, err = tool.Callable.Call(context.Background(), nil)
	assert.Error(t, err)
	assert.Nil(t, got)
}

func TestToolRefuses(t *testing.T) {
	_, err := Tool[typedIn, int]("", func(context.Context, typedIn) (int, error) { return 0, nil })
	assert.ErrorIs(t, err, core.ErrInvalidTool)
	_, err = Tool[typedIn, int]("x", nil)
	assert.ErrorIs(t, err, core.ErrInvalidTool)
}

func TestToolPanic(t *testing.T) {
	tool, err := Tool("p", func(ctx context.Context, in typedIn) (int, error) { panic("typed") })
	require.NoError(t, err)
	_, err = tool.Callable.Call(context.Background(), argsOf(t, `{"city":"x"}`))
	assert.ErrorIs(t, err, core.ErrInternal)
}

// argsOf decodes a JSON object of arguments for a test.
func argsOf(t *testing.T, s string) *core.Arguments {
	t.Helper()
	a, err := core.DecodeArguments("t", []byte(s))
	require.NoError(t, err)
	return a
}
