//go:build e2e

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"go.yaml.in/yaml/v3"
)

// action is the part of action.yml the runner reads.
type action struct {
	Runs struct {
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
}

// actionStep is one step of a composite action.
type actionStep struct {
	ID  string            `yaml:"id"`
	Run string            `yaml:"run"`
	Env map[string]string `yaml:"env"`
}

var actionExpr = regexp.MustCompile(`\$\{\{\s*([a-z]+)\.([A-Za-z0-9_.-]+)\s*\}\}`)

// action install
// action [-status=N] [-base=REV] [input=value...]
//
// Run the steps of $REPO's action.yml roughly as the GitHub runner does:
// each run step in bash with -eo pipefail, inputs and expressions
// evaluated into the step's env, GITHUB_PATH lines prepended to PATH for
// later steps, $WORK/runner-temp as RUNNER_TEMP. `install` runs the steps
// before the one with id check (they build xpmigrate from $REPO) and
// keeps what they add to PATH for the rest of the script; the other form
// runs the check in the current directory as the workspace, with the
// pull request's base commit REV, and must exit with N. The GITHUB_OUTPUT,
// GITHUB_STEP_SUMMARY, GITHUB_ENV and GITHUB_PATH files of the last run
// are in $WORK/github. actions/setup-go is skipped: Go is here.
func cmdAction(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "action")
	var a action
	ts.Check(yaml.Unmarshal([]byte(ts.ReadFile(filepath.Join(ts.Getenv("REPO"), "action.yml"))), &a))
	check := slices.IndexFunc(a.Runs.Steps, func(s actionStep) bool { return s.ID == "check" })
	if check < 0 {
		ts.Fatalf("action.yml has no step with id check")
	}
	if len(args) == 1 && args[0] == "install" {
		status, out, added := runSteps(ts, a, a.Runs.Steps[:check], ts.MkAbs("."), "", nil)
		if status != 0 {
			ts.Fatalf("the action's install steps: exit %d\n%s", status, out)
		}
		if len(added) == 0 {
			ts.Fatalf("the install steps added nothing to GITHUB_PATH")
		}
		ts.Setenv("PATH", strings.Join(append(added, ts.Getenv("PATH")), string(os.PathListSeparator)))
		return
	}
	want, args := statusFlag(ts, args)
	base := ""
	if len(args) > 0 && strings.HasPrefix(args[0], "-base=") {
		base, args = strings.TrimPrefix(args[0], "-base="), args[1:]
	}
	inputs := map[string]string{}
	for _, in := range args {
		k, v, ok := strings.Cut(in, "=")
		if !ok {
			ts.Fatalf("usage: action [-status=N] [-base=REV] [input=value...]")
		}
		if _, ok := a.Inputs[k]; !ok {
			ts.Fatalf("action.yml has no input %q", k)
		}
		inputs[k] = v
	}
	status, out, _ := runSteps(ts, a, a.Runs.Steps[check:], ts.MkAbs("."), base, inputs)
	_, _ = ts.Stdout().Write([]byte(out))
	if status != want {
		ts.Fatalf("action: exit %d, want %d", status, want)
	}
}

// runSteps runs the run steps in workspace and returns the last exit
// status, the output and the directories the steps added to GITHUB_PATH,
// latest first. A step that fails stops the run.
func runSteps(ts *testscript.TestScript, a action, steps []actionStep, workspace, prBase string, inputs map[string]string) (int, string, []string) {
	work := ts.Getenv("WORK")
	source := ts.Getenv("REPO")
	temp := filepath.Join(work, "runner-temp")
	dir := filepath.Join(work, "github")
	ts.Check(os.MkdirAll(temp, 0o750))
	ts.Check(os.MkdirAll(dir, 0o750))
	files := map[string]string{}
	for _, f := range []string{"GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_ENV"} {
		files[f] = filepath.Join(dir, f)
		ts.Check(os.WriteFile(files[f], nil, 0o600))
	}
	var eval func(s string) string
	eval = func(s string) string {
		return actionExpr.ReplaceAllStringFunc(s, func(m string) string {
			p := actionExpr.FindStringSubmatch(m)
			switch {
			case p[1] == "inputs":
				if v, ok := inputs[p[2]]; ok {
					return v
				}
				d := a.Inputs[p[2]].Default
				if actionExpr.MatchString(d) {
					return eval(d)
				}
				return d
			case p[1] == "github" && p[2] == "action_path":
				return source
			case p[1] == "github" && p[2] == "workspace":
				return workspace
			case p[1] == "github" && p[2] == "event.pull_request.base.sha":
				return prBase
			}
			ts.Fatalf("action.yml uses %s, which the runner does not provide", m)
			return ""
		})
	}
	var added []string
	var out bytes.Buffer
	for _, s := range steps {
		if s.Run == "" {
			continue // uses: actions/setup-go; Go is here
		}
		script := filepath.Join(dir, "step.sh")
		ts.Check(os.WriteFile(script, []byte(s.Run), 0o600))
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = workspace
		path := strings.Join(append(slices.Clone(added), ts.Getenv("PATH")), string(os.PathListSeparator))
		cmd.Env = append(scriptEnv(ts), "PATH="+path, "RUNNER_TEMP="+temp, "GITHUB_WORKSPACE="+workspace,
			"GITHUB_ACTION_PATH="+source, "NO_COLOR=1")
		for k, v := range files {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+eval(v))
		}
		cmd.Stdout, cmd.Stderr = &out, &out
		if status := exitStatus(ts, cmd.Run()); status != 0 {
			return status, out.String(), added
		}
		for _, l := range strings.Split(ts.ReadFile(files["GITHUB_PATH"]), "\n") {
			if l != "" && !slices.Contains(added, l) {
				added = append([]string{l}, added...) // the runner prepends each line
			}
		}
	}
	return 0, out.String(), added
}
