package main

import (
	"strings"

	"github.com/pkg/errors"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
)

// newConvertCmd returns `xpmigrate convert`, its flags bound to
// migrate.FileOptions. runF, when set, replaces the run (tests use it to
// check flag parsing).
func newConvertCmd(s streams, runF func(migrate.FileOptions) error) *cobra.Command {
	o := migrate.FileOptions{}
	cmd := &cobra.Command{
		Use:   "convert [FILE|-]",
		Short: "Convert legacy mode: Resources Compositions in one file to mode: Pipeline",
		Long: `Convert every mode: Resources Composition in a YAML file (or stdin) into a
mode: Pipeline Composition that runs function-patch-and-transform (and
function-environment-configs when spec.environment selects
EnvironmentConfigs). Everything else is kept: other documents byte for byte,
and in each Composition the comments, key order and layout of what the
conversion does not rewrite.

The result goes to stdout, to -o FILE, or back into FILE with --in-place
(never half-written); --check and --diff write nothing. Nothing is written
when a Composition cannot be converted. Findings go to stderr (C1xx errors,
C2xx warnings, errors with --strict; C3xx information), or as JSON with
--diagnostics-format json.

--xrd types XR fields from the XRD; --fix-quirk CODE fixes a native quirk on
purpose; --phase1 writes phase one of the rollout of unnamed templates.
--target v2 also converts the v1 XRDs into v2-native ones (--xr-scope,
--xr-naming, --xr-group) and rewrites the objects around the Compositions.

Exit codes: 0 converted (or nothing to do); 1 a Composition could not be
converted; 2 invalid usage or input that is not YAML; 3 --check found that
FILE would change.

In detail (what is kept, fidelity and quirks, --target v2): docs/convert.md.`,
		Example: `  # Convert a file and print the result
  xpmigrate convert composition.yaml

  # Convert in place, for Crossplane v2 with legacy XRDs and claims
  xpmigrate convert --in-place --target v2 --xr-scope legacy composition.yaml

  # XRDs to v2-native definitions, in a new group (adopt-in-place moves)
  xpmigrate convert --target v2 --xr-naming new-group --xr-group platform.example.org definition.yaml

  # CI: fail (exit 3) and show the diff when a file is not converted yet
  xpmigrate convert --check --diff composition.yaml

  # Two-phase rollout of unnamed templates
  xpmigrate convert --phase1 composition.yaml > phase1.yaml
  xpmigrate convert composition.yaml > pipeline.yaml

  # Fix the %!d(float64=N) quirk on purpose, typing XR fields from the XRD
  xpmigrate convert --fix-quirk C325 --xrd definition.yaml composition.yaml

  # From stdin, with the Function manifests appended
  kubectl get composition xdatabases.acme.io -o yaml | xpmigrate convert --emit-functions -`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return errkind.InvalidInputf("convert takes at most one file, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.File = args[0]
			}
			if err := validateConvert(o); err != nil {
				return errkind.InvalidInput(err)
			}
			if runF != nil {
				return runF(o)
			}
			if (o.File == "" || o.File == "-") && s.InTTY {
				// A terminal on stdin is refused rather than waited on.
				return errkind.InvalidInputf("no input: give a FILE, or pipe YAML to stdin (convert -)")
			}
			o.Stdin = s.In
			return migrate.ConvertFile(o, s.Out, s.ErrOut)
		},
	}
	c := &o.Convert
	f := cmd.Flags()
	f.StringVarP(&o.Output, "output", "o", "", "write the result to this file instead of stdout")
	f.BoolVar(&o.InPlace, "in-place", false, "write the result back into FILE")
	f.StringVar(&o.BackupSuffix, "backup-suffix", "", "with --in-place, keep the original as FILE+SUFFIX")
	f.BoolVar(&o.Force, "force", false, "write a read-only or hard-linked file anyway (its mode is kept; its other names keep the old content)")
	f.BoolVar(&o.Check, "check", false, "write nothing; exit 3 if FILE would change")
	f.BoolVar(&o.Diff, "diff", false, "write nothing; print a unified diff of the change on stdout")
	formats := []string{"", convert.FormatYAML, convert.FormatJSON}
	stringEnumFlag(f, &o.Format, "output-format", "", "output format: yaml (edits the input, keeping its layout) or json (default: json for a JSON input, else yaml)", formats...)
	stringEnumFlag(f, &o.Format, "format", "", "alias of --output-format", formats...)

	stringEnumFlag(f, &c.Target, "target", crossplane.V1, "Crossplane line the output is for: v1 (1.18–1.20, function-environment-configs v0.6.0) or v2 (the v2-native platform; see --xr-scope)", crossplane.Targets...)
	addXRFlags(f, c)
	f.BoolVar(&c.Phase1, "phase1", false, "write phase one of the rollout instead: the Resources-mode Composition with its unnamed templates named")
	f.StringVar(&o.Phase1Out, "phase1-out", "", "also write phase one of the rollout to this file when templates were unnamed")
	stringEnumFlag(f, &c.NameStrategy, "name-strategy", convert.NameByIndex, "names for unnamed templates: index (resource-<i>) or kind (<kind>-<i>)", convert.NameByIndex, convert.NameByKind)
	f.BoolVar(&c.EmitFunctions, "emit-functions", false, "append pkg.crossplane.io/v1 Function manifests, pinned for the target, for the functions used")
	f.StringVar(&c.PTFunction, "function-patch-and-transform-ref", "", "functionRef name of function-patch-and-transform (default: a Function manifest in FILE, a dependency in --configuration, else function-patch-and-transform)")
	f.StringVar(&c.ECFunction, "function-environment-configs-ref", "", "functionRef name of function-environment-configs (default: as for --function-patch-and-transform-ref)")
	f.StringVar(&c.PTFunction, "pt-function", "", "alias of --function-patch-and-transform-ref")
	f.StringVar(&c.ECFunction, "ec-function", "", "alias of --function-environment-configs-ref")
	_ = f.MarkHidden("pt-function")
	_ = f.MarkHidden("ec-function")
	f.StringVar(&c.PTStep, "pt-step-name", convert.DefaultPTStep, "name of the patch-and-transform step")
	f.StringVar(&c.ECStep, "ec-step-name", convert.DefaultECStep, "name of the environment-configs step")
	f.StringVar(&o.Configuration, "configuration", "", "a Configuration's crossplane.yaml whose dependsOn names the functions (default: crossplane.yaml beside FILE, if any)")

	f.BoolVar(&c.Strict, "strict", false, "treat warnings as errors")
	f.BoolVar(&c.AckUnnamed, "ack-unnamed", false, "with --strict, accept generated template names (C204) as a warning")
	f.BoolVar(&c.KeepServerFields, "keep-server-fields", false, "keep status, uid, resourceVersion and the other fields of a cluster export")
	f.BoolVar(&c.MoveEnvPatches, "move-env-patches", false, "move the environment patches of a Pipeline Composition into its patch-and-transform step instead of dropping them (changes behaviour)")
	f.BoolVar(&c.FixEnumCase, "fix-enum-case", false, "rewrite enum values written in the wrong case (optional → Optional) instead of refusing them")
	enumFlag(f, &c.EnvironmentFlagOff, "assume-env-flag", "", false, "whether Crossplane ran with --enable-environment-configs: on, or off to drop spec.environment", []string{"on", "off"}, []bool{false, true})
	enumFlag(f, &c.XRStyleV2, "xr-style", "", false, "v2: also report what changes for XRs later moved to namespaced or cluster scope (output unchanged)", []string{"", "v1", "v2"}, []bool{false, false, true})
	enumSliceFlag(f, &c.NoCompensate, "no-compensate", "turn compensations off: K1 (int64 convert before %d formats where the XRD types the value integer), K2 (function-environment-configs v0.6.0 for v1), K4 (%.0f for %d and %v of integer XR fields in combine formats), K5 (remove metadata.name and metadata.namespace from templates' bases, which native Crossplane ignored)",
		convert.Compensations)
	enumSliceFlag(f, &c.FixQuirks, "fix-quirk", "fix a native quirk on purpose, by code (changes behaviour; the Composition is annotated "+convert.IntendedChangesAnnotation+"): C325 (integer format verbs print the integer where native printed %!d(float64=N))", convert.Quirks)
	f.StringArrayVar(&o.XRDs, "xrd", nil, "a file of CompositeResourceDefinitions whose schemas type the XR fields (XRDs in FILE are read too); repeatable")
	f.StringArrayVar(&o.ProviderCRDs, "provider-crds", nil, "with --target v2: a file or directory of provider CustomResourceDefinitions (a provider package's package/crds) that give the namespaced twins of managed resources, their versions and scopes; repeatable")
	stringEnumFlag(f, &c.ProviderConfigKind, "provider-config-kind", convert.KindClusterProviderConfig, "with --target v2: the kind namespaced managed resources' providerConfigRef names: ClusterProviderConfig (cluster-wide) or ProviderConfig (in the XR's namespace)", convert.KindClusterProviderConfig, convert.KindProviderConfig)
	f.BoolVar(&c.UnwrapObjects, "unwrap-objects", false, "with --target v2: compose the objects provider-kubernetes Objects wrap directly where nothing else depends on the wrapper (they are then created in the Crossplane cluster, and count as ready once composed)")
	stringEnumFlag(f, &o.DiagnosticsFormat, "diagnostics-format", convert.DiagnosticsText, "findings on stderr as text (one per line) or json", convert.DiagnosticsText, convert.DiagnosticsJSON)
	return cmd
}

// validateConvert checks the flags against each other.
func validateConvert(o migrate.FileOptions) error {
	stdin := o.File == "" || o.File == "-"
	switch {
	case formatNamed(o.Output):
		return errors.Errorf("-o %s would write a file named %q: -o/--output names the output file; for the output format use --output-format %s", o.Output, o.Output, o.Output)
	case o.InPlace && o.Output != "":
		return errors.New("--in-place and --output cannot be used together")
	case o.InPlace && stdin:
		return errors.New("--in-place needs a FILE, not stdin")
	case o.BackupSuffix != "" && !o.InPlace:
		return errors.New("--backup-suffix needs --in-place")
	case (o.Check || o.Diff) && (o.InPlace || o.Output != ""):
		return errors.New("--check and --diff write nothing: drop --in-place and --output")
	case o.Convert.Phase1 && o.Phase1Out != "":
		return errors.New("--phase1 already writes phase one: drop --phase1-out")
	}
	return validateXRFlags(o.Convert.Target, o.Convert)
}

// addXRFlags defines the flags of the v2-native conversion (convert and
// migrate).
func addXRFlags(f *pflag.FlagSet, c *convert.Options) {
	stringEnumFlag(f, &c.XRScope, "xr-scope", "", "with --target v2, the scope of the v2 XRDs: auto (default: Namespaced, unless a Composition of the type composes a cluster-scoped kind or sets a namespace, then a finding asks to choose), namespaced, cluster, or legacy (keep the v1 XRDs and claims; convert the Compositions' mode only)", convert.XRScopes...)
	stringEnumFlag(f, &c.XRNaming, "xr-naming", "", "with --target v2, how the v2 XR types are named: drop-prefix (default: same group, leading X dropped from kind and plural) or new-group (leading X dropped, group from --xr-group)", convert.XRNamings...)
	f.StringVar(&c.XRGroup, "xr-group", "", "with --xr-naming new-group, the API group of the v2 XR types (e.g. platform.example.org)")
}

// validateXRFlags checks the flags of the v2-native conversion against the
// target and each other.
func validateXRFlags(target crossplane.Target, c convert.Options) error {
	v2 := target == crossplane.V2
	switch {
	case !v2 && c.XRScope != "":
		return errors.New("--xr-scope needs --target v2")
	case !v2 && c.XRNaming != "":
		return errors.New("--xr-naming needs --target v2")
	case !v2 && c.XRGroup != "":
		return errors.New("--xr-group needs --target v2 and --xr-naming new-group")
	case c.XRScope == convert.XRScopeLegacy && (c.XRNaming != "" || c.XRGroup != ""):
		return errors.New("--xr-scope legacy keeps the v1 XR types: drop --xr-naming and --xr-group")
	case c.XRNaming == convert.XRNamingNewGroup && c.XRGroup == "":
		return errors.New("--xr-naming new-group needs --xr-group")
	case c.XRGroup != "" && c.XRNaming != convert.XRNamingNewGroup:
		return errors.New("--xr-group needs --xr-naming new-group")
	}
	return nil
}

// formatNamed reports whether an output file name is an output format's
// name ("json", "yaml"…), which `-o` means in kubectl and crossplane render
// but here would name a file.
func formatNamed(name string) bool {
	switch strings.ToLower(name) {
	case "json", "yaml", "yml", "text", "wide", "name":
		return true
	}
	return false
}
