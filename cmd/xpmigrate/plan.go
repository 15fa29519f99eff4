package main

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate/plan"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/logsafe"
)

type planOptions struct {
	cluster      clusterOptions
	from         []string
	v2           []string
	out          string
	check        int
	planDir      string
	xr           string
	convert      convert.Options
	providerCRDs []string
	timeout      time.Duration
	maxObjects   int
	// pckChanged: --provider-config-kind was given.
	pckChanged bool
}

func newPlanCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plan",
		Short: "Plan moves of running objects (plan v2: claims and legacy XRs onto v2-native XRs)",
		Example: `  xpmigrate plan v2 --cluster --v2 platform-v2/ --out move/
  xpmigrate plan v2 --check-step 1 --plan move/ --cluster`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newPlanV2Cmd(s), newPlanUpgradeCmd(s))
	return cmd
}

func newPlanV2Cmd(s streams) *cobra.Command {
	o := &planOptions{}
	cmd := &cobra.Command{
		Use:   "v2 {--cluster | --from FILE|DIR} {--out DIR | --check-step N --plan DIR}",
		Short: "Plan the adopt-in-place move of running claims and legacy XRs onto v2-native XRs",
		Long: `Plan how the running claims and legacy XRs of a Crossplane v1 platform, and
their managed resources, move onto the v2-native definitions (convert or
migrate --target v2) without deleting or recreating any cloud resource.

xpmigrate never writes to the cluster. It reads it (--cluster: get and list
only) or exported manifests (--from), and writes a plan directory (--out)
that you apply with kubectl, step by step, in order: 1 protect (pause and
orphan the old objects), 2 adopt (create the namespaced twins and the new
XR, paused), 3 resume the new XR, 4 retire the old objects, 5 release them.

--check-step N --plan DIR checks, read-only, that the cluster (or --from)
allows step N (6: the move is complete). Every object a step applies is
validated against its kind's CRD, and every XR's plan carries a render proof
that each managed resource is adopted, not recreated.

The v2 definitions come from --v2 (migrate --target v2's output), or are
converted on the fly with the flags of convert (--xr-scope, --xr-naming,
--xr-group, --provider-config-kind, --provider-crds).

Exit codes: 0 planned (or the step is allowed); 1 an error; 2 invalid usage;
3 a plan with errors (or the step is not allowed).

In detail (the steps and their checks, validation, the render proof, the
plan directory, permissions): docs/migration-runbook.md, section "Moving
running claims and XRs to v2-native XRs".`,
		Example: `  # Plan from the live cluster, read-only, onto migrate --target v2's output
  xpmigrate plan v2 --cluster --kubeconfig view-only.kubeconfig --v2 platform-v2/ --out move/

  # Offline, from exported manifests, converting the definitions on the fly
  kubectl get compositeresourcedefinitions.v1.apiextensions.crossplane.io,compositions,nopdbs,xnopdbs,nopresources -A -o yaml > export.yaml
  xpmigrate plan v2 --from export.yaml --xr-naming new-group --xr-group v2.example.org \
    --provider-crds provider-crds/ --out move/

  # Before each step: is the cluster ready for it?
  xpmigrate plan v2 --check-step 2 --plan move/ --cluster`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.validate(cmd); err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), o.timeout)
			defer cancel()
			if o.check != 0 {
				return runPlanCheck(ctx, s, o)
			}
			return runPlanV2(ctx, s, o)
		},
	}
	f := cmd.Flags()
	addClusterFlags(f, &o.cluster, "read the legacy platform from the cluster of the kubeconfig (get and list only)")
	f.StringArrayVar(&o.from, "from", nil, "read the legacy platform from exported manifests (kubectl get -o yaml; a file or directory; repeatable) instead of a cluster")
	f.StringArrayVar(&o.v2, "v2", nil, "the v2 definitions (migrate --target v2's output: a file, or a directory read with its subdirectories; repeatable); without it the legacy definitions are converted on the fly")
	f.StringVarP(&o.out, "out", "o", "", "the plan directory to write: absent (its parent must exist), empty, or an earlier plan, which is replaced whole")
	f.IntVar(&o.check, "check-step", 0, "check, read-only, that the cluster allows step N of the plan given with --plan (1-5; 6: the move is complete)")
	f.StringVar(&o.planDir, "plan", "", "with --check-step: the plan directory")
	f.StringVar(&o.xr, "xr", "", "with --check-step: only the XR of this plan subdirectory (NAMESPACE/NAME, or NAMESPACE/NAME_KIND.GROUP where names collide, as README.md lists them)")
	f.DurationVar(&o.timeout, "timeout", 30*time.Minute, "give up after this long")
	f.IntVar(&o.maxObjects, "max-objects", defaultMaxObjects, "with --from: refuse exports of more than this many objects (List items counted; 1–1000000)")
	stringEnumFlag(f, &o.convert.XRScope, "xr-scope", "", "without --v2: the scope of the v2 XRDs, as convert --target v2: auto (default), namespaced or cluster", convert.XRScopeAuto, convert.XRScopeNamespaced, convert.XRScopeCluster)
	stringEnumFlag(f, &o.convert.XRNaming, "xr-naming", "", "how the v2 XR types are named, as convert --target v2: drop-prefix (default) or new-group (with --xr-group); with --v2 it picks among several v2 Compositions of one legacy type", convert.XRNamings...)
	f.StringVar(&o.convert.XRGroup, "xr-group", "", "with --xr-naming new-group: the group of the v2 XR types")
	stringEnumFlag(f, &o.convert.ProviderConfigKind, "provider-config-kind", convert.KindClusterProviderConfig, "the kind namespaced managed resources' providerConfigRef names, ClusterProviderConfig or ProviderConfig: without --v2 in the converted templates (as convert --target v2); in a twin whose live providerConfigRef has no kind and whose template's mapping sets none (default: the providerConfigRef default of the twin's CRD, else ClusterProviderConfig)", convert.KindClusterProviderConfig, convert.KindProviderConfig)
	f.StringArrayVar(&o.providerCRDs, "provider-crds", nil, "provider CustomResourceDefinitions (a file or directory; repeatable): every object of the plan is validated against its kind's CRD (the cluster's or the export's first); without --v2 they also give the namespaced twins of managed resources (as convert --target v2)")
	return cmd
}

func (o *planOptions) validate(cmd *cobra.Command) error {
	f := cmd.Flags()
	if err := o.cluster.validate(f, "from"); err != nil {
		return err
	}
	if err := inRange("max-objects", o.maxObjects, minMaxObjects, maxMaxObjects); err != nil {
		return err
	}
	if !o.cluster.enabled && len(o.from) == 0 {
		return errkind.InvalidInputf("give the legacy platform: --cluster or --from FILE|DIR")
	}
	if o.check != 0 {
		if o.planDir == "" {
			return errkind.InvalidInputf("--check-step needs --plan DIR")
		}
		if o.out != "" {
			return errkind.InvalidInputf("--check-step reads a plan: --out cannot be used with it")
		}
		if o.check < plan.StepProtect || o.check > plan.StepDone {
			return errkind.InvalidInputf("--check-step must be between %d and %d, not %d", plan.StepProtect, plan.StepDone, o.check)
		}
		return nil
	}
	if o.planDir != "" || o.xr != "" {
		return errkind.InvalidInputf("--plan and --xr go with --check-step")
	}
	if o.out == "" {
		return errkind.InvalidInputf("give the plan directory to write with --out DIR")
	}
	o.pckChanged = f.Changed("provider-config-kind")
	if len(o.v2) > 0 {
		for _, n := range []string{"xr-scope"} {
			if f.Changed(n) {
				return errkind.InvalidInputf("--%s converts the definitions on the fly: it cannot be used with --v2", n)
			}
		}
	}
	if o.convert.XRNaming == convert.XRNamingNewGroup && o.convert.XRGroup == "" {
		return errkind.InvalidInputf("--xr-naming new-group needs --xr-group")
	}
	return nil
}

// objects returns the store the plan reads: the cluster or the exports.
func (o *planOptions) objects() (plan.Objects, *plan.Manifests, *plan.Cluster, error) {
	if o.cluster.enabled {
		r, err := o.cluster.newReader(false, nil)
		if err != nil {
			return nil, nil, nil, err
		}
		c := &plan.Cluster{R: r}
		return c, nil, c, nil
	}
	m, err := plan.LoadManifestsMax(o.maxObjects, o.from...)
	if err != nil {
		return nil, nil, nil, errkind.InvalidInput(err)
	}
	return m, m, nil, nil
}

func runPlanV2(ctx context.Context, s streams, o *planOptions) error {
	_, m, c, err := o.objects()
	if err != nil {
		return err
	}
	req := plan.Request{Cluster: c, Manifests: m, V2: o.v2, Convert: o.convert, ProviderCRDs: o.providerCRDs, Out: o.out}
	if o.pckChanged {
		req.ProviderConfigKind = o.convert.ProviderConfigKind
	}
	p, err := plan.Run(ctx, req)
	if err != nil {
		return err
	}
	for _, x := range p.XRs {
		status := "planned"
		if len(x.Errors) > 0 {
			status = "ERROR"
		}
		logsafe.Fprintf(s.Out, "%-7s %s: %s -> %s, %d managed resources\n", status, x.Dir, x.Legacy, x.New, len(x.Resources))
		for _, e := range x.Errors {
			logsafe.Fprintf(s.Out, "        %s\n", e)
		}
	}
	logsafe.Fprintf(s.Out, "%d XRs planned in %s (%d with errors). xpmigrate wrote nothing to the cluster: apply each step with kubectl, in order, after its check (see %s/README.md).\n", len(p.XRs), o.out, p.WithErrors(), strings.TrimSuffix(o.out, "/"))
	return p.Err()
}

func runPlanCheck(ctx context.Context, s streams, o *planOptions) error {
	res, err := plan.CheckStep(ctx, plan.CheckRequest{
		Plan: o.planDir, Step: o.check, XR: o.xr,
		Objects: func() (plan.Objects, error) {
			objs, _, _, err := o.objects()
			return objs, err
		},
	})
	if res != nil {
		printStepCheck(s, res)
	}
	if err != nil {
		return err
	}
	return res.Err()
}

// printStepCheck writes a line per XR checked, and the reasons a step is
// not allowed.
func printStepCheck(s streams, res *plan.StepCheck) {
	for _, x := range res.XRs {
		if x.Allowed() {
			logsafe.Fprintf(s.Out, "ok      %s: step %d allowed (%s)\n", x.Dir, res.Step, plan.StepTitles[res.Step])
			continue
		}
		logsafe.Fprintf(s.Out, "BLOCKED %s: step %d not allowed:\n", x.Dir, res.Step)
		for _, r := range x.Reasons {
			logsafe.Fprintf(s.Out, "        %s\n", r)
		}
	}
}
