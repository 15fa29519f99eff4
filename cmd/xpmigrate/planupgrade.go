package main

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pkg/errors"
	"github.com/spf13/cobra"

	"github.com/xpmigrate/xpmigrate/convert/migrate/plan"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
)

type planUpgradeOptions struct {
	cluster clusterOptions
	format  string
	timeout time.Duration
}

func newPlanUpgradeCmd(s streams) *cobra.Command {
	o := &planUpgradeOptions{}
	cmd := &cobra.Command{
		Use:   "upgrade --cluster",
		Short: "Check, read-only, that a Crossplane v1 cluster can be upgraded to v2 without losing composed resources",
		Long: `Read every Composition of the cluster and the XRs that run each (get and
list only, the kubeconfig flags and permissions of verify --cluster), and
report what Crossplane v2 would not run as Crossplane v1 runs it:

  U1  a Composition in mode Resources (or without a mode): v2 has no such
      mode and runs it as an empty pipeline, so the composed resources of
      every XR that runs it are garbage collected (and, with deletionPolicy
      Delete, their external resources deleted)
  U2  an XR that runs a CompositionRevision in mode Resources although its
      Composition is now a Pipeline (pinned with compositionUpdatePolicy:
      Manual, or not yet moved on)

Each finding lists the XRs at risk, their claims and how many composed
resources each would lose. Run it after applying migrate's output and
before stopping Crossplane v1 (docs/migration-runbook.md).

Exit codes: 0 ready; 1 an error; 2 invalid usage; 3 findings, or a request
the API server forbade (the check is then incomplete).`,
		Example: `  xpmigrate plan upgrade --cluster --context prod
  xpmigrate plan upgrade --cluster --kubeconfig view-only.kubeconfig --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.validate(cmd); err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), o.timeout)
			defer cancel()
			return runPlanUpgrade(ctx, s, o)
		},
	}
	f := cmd.Flags()
	addClusterFlags(f, &o.cluster, "read the cluster of the kubeconfig (get and list only; required)")
	stringEnumFlag(f, &o.format, "format", "text", "the report's format: text or json", "text", "json")
	f.DurationVar(&o.timeout, "timeout", 30*time.Minute, "give up after this long")
	return cmd
}

func (o *planUpgradeOptions) validate(cmd *cobra.Command) error {
	if !o.cluster.enabled {
		return errkind.InvalidInputf("give the cluster to check: --cluster (with --kubeconfig, --context)")
	}
	if cmd.Flags().Changed("namespace") {
		return errkind.InvalidInputf("--namespace cannot be used with plan upgrade: the upgrade affects every XR")
	}
	return o.cluster.validate(cmd.Flags())
}

func runPlanUpgrade(ctx context.Context, s streams, o *planUpgradeOptions) error {
	r, err := o.cluster.newReader(false, nil)
	if err != nil {
		return err
	}
	rep, err := plan.CheckUpgrade(ctx, r)
	if err != nil {
		return errors.Wrap(err, "cannot check the cluster")
	}
	if o.format == "json" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return errors.Wrap(err, "cannot write the report")
		}
		_, err = s.Out.Write(append(b, '\n'))
		if err != nil {
			return errors.Wrap(err, "cannot write the report")
		}
	} else if err := plan.WriteUpgradeText(s.Out, rep); err != nil {
		return errors.Wrap(err, "cannot write the report")
	}
	if !rep.Ready() {
		return errkind.Findings(nil)
	}
	return nil
}
