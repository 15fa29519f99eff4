package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version and commit are set at release time with -ldflags "-X main.version=… -X main.commit=…".
var (
	version = ""
	commit  = ""
)

func newVersionCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the xpmigrate version and commit",
		Example: `  xpmigrate version`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, c := buildVersion()
			_, err := fmt.Fprintf(s.Out, "xpmigrate %s (commit %s)\n", v, c)
			return err
		},
	}
}

// buildVersion reports the module version and VCS commit, from link-time
// flags when set, else from the build information Go embeds.
func buildVersion() (string, string) {
	v, c := version, commit
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "" && bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && c == "" {
				c = s.Value
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	if c == "" {
		c = "unknown"
	}
	return v, c
}
