// Package workflow writes GitHub Actions workflow commands: the
// annotations (`::error file=…,line=…,title=…::message`) that a pull
// request shows on the files they point at. Every report that writes
// `--format github` (verify, verify --cluster, migrate) writes them here,
// so their values are escaped one way, internal/logsafe's WorkflowProperty
// and WorkflowData, and no message can end a command or start one.
//
//	fmt.Fprintln(w, workflow.Annotation{Level: workflow.Error, File: "apis/x.yaml", Line: 12, Title: "x", Message: "differs"})
//	// ::error file=apis/x.yaml,line=12,title=x::differs
package workflow

import (
	"strconv"
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/logsafe"
)

// Levels of an Annotation.
const (
	Error   = "error"
	Warning = "warning"
	Notice  = "notice"
)

// An Annotation is one workflow command. File, Line (when positive) and
// Title are written only when set, in that order.
type Annotation struct {
	Level   string
	File    string
	Line    int
	Title   string
	Message string
}

// String is the command's line, without its line break.
func (a Annotation) String() string {
	var props []string
	if a.File != "" {
		props = append(props, "file="+logsafe.WorkflowProperty(a.File))
	}
	if a.Line > 0 {
		props = append(props, "line="+strconv.Itoa(a.Line))
	}
	if a.Title != "" {
		props = append(props, "title="+logsafe.WorkflowProperty(a.Title))
	}
	s := "::" + a.Level
	if len(props) > 0 {
		s += " " + strings.Join(props, ",")
	}
	return s + "::" + logsafe.WorkflowData(a.Message)
}
