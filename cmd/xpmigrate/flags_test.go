package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

func TestEnumFlag(t *testing.T) {
	type want struct {
		target  crossplane.Target
		off     bool
		quirks  []string
		errText string
	}
	cases := map[string]struct {
		reason string
		args   []string
		want   want
	}{
		"Defaults": {
			reason: "Without the flags the values are the defaults.",
			want:   want{target: crossplane.V1},
		},
		"Values": {
			reason: "A name sets the value it stands for; slice items accumulate over repeats and commas.",
			args:   []string{"--target", "v2", "--env", "off", "--quirk", "A,B", "--quirk", "A"},
			want:   want{target: crossplane.V2, off: true, quirks: []string{"A", "B", "A"}},
		},
		"TwoNames": {
			reason: "A wrong value names the flag and, of two names, both with or.",
			args:   []string{"--target", "v3"},
			want:   want{target: crossplane.V1, errText: `--target must be v1 or v2, not "v3"`},
		},
		"SeveralNames": {
			reason: "Of more names, one of lists them; the empty name is left out.",
			args:   []string{"--format", "toml"},
			want:   want{target: crossplane.V1, errText: `--format must be one of yaml, json, text, not "toml"`},
		},
		"SliceItem": {
			reason: "A wrong slice item names the item.",
			args:   []string{"--quirk", "A,C"},
			want:   want{target: crossplane.V1, errText: `--quirk must be A or B, not "C"`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got want
			var format string
			f := pflag.NewFlagSet("test", pflag.ContinueOnError)
			stringEnumFlag(f, &got.target, "target", crossplane.V1, "target", crossplane.Targets...)
			enumFlag(f, &got.off, "env", "", false, "env", []string{"on", "off"}, []bool{false, true})
			stringEnumFlag(f, &format, "format", "", "format", "", "yaml", "json", "text")
			enumSliceFlag(f, &got.quirks, "quirk", "quirks", []string{"A", "B"})
			err := f.Parse(tc.args)
			if err != nil {
				var ee *enumError
				if !errors.As(err, &ee) {
					t.Fatalf("\n%s\nParse(%v): %v is not an enumError", tc.reason, tc.args, err)
				}
				got.errText = ee.Error()
				got.quirks = nil
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nParse(%v): -want, +got:\n%s", tc.reason, tc.args, diff)
			}
		})
	}
}

// TestEnumFlagsHelp holds that every enum flag's help names what it takes
// and that its default is one of them.
func TestEnumFlagsHelp(t *testing.T) {
	// Values a help text leaves out on purpose: aliases say whose they are,
	// and --xr-style v1 is the default behaviour.
	unlisted := map[string]bool{"convert --format": true, "convert --xr-style v1": true}
	var visit func(c *cobra.Command)
	n := 0
	visit = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(fl *pflag.Flag) {
			e, ok := fl.Value.(interface{ allowed() []string })
			if !ok {
				return
			}
			n++
			key := c.Name() + " --" + fl.Name
			if def := strings.Trim(fl.DefValue, "[]"); def != "" && !slices.Contains(e.allowed(), def) {
				t.Errorf("%s: the default %q is not a value the flag takes", key, fl.DefValue)
			}
			for _, v := range e.allowed() {
				if v != "" && !unlisted[key] && !unlisted[key+" "+v] && !strings.Contains(fl.Usage, v) {
					t.Errorf("%s: the help %q does not name %q", key, fl.Usage, v)
				}
			}
		})
		for _, ch := range c.Commands() {
			visit(ch)
		}
	}
	visit(newRootCmd(streams{}))
	if n < 10 {
		t.Errorf("found %d enum flags; the commands define more", n)
	}
}
