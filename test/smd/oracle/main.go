// Command oracle runs server-side apply cases through structured-merge-diff (SMD) 4.1.2.
//
// It reads one JSON case per line on stdin and writes one JSON result per line on stdout, in order. A case
// names a type of the base schema (-base, an SMD schema YAML file) or of the case's own `schema` YAML, and
// lists applies by named managers; the result gives each apply's conflicts and each manager's final field
// set. A bad case gets an `error` in its result; the batch goes on. test/smd/smd.ts builds and drives it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	basePath := flag.String("base", "", "SMD schema YAML whose types every case can use")
	flag.Parse()

	baseDoc := ""
	if *basePath != "" {
		b, err := os.ReadFile(*basePath)
		if err != nil {
			fmt.Fprintf(os.Stderr, "oracle: %v\n", err)
			os.Exit(2)
		}
		baseDoc = string(b)
	}
	schemas := loadBase(baseDoc)

	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 && !isBlank(line) {
			var c caseInput
			var result caseOutput
			if jerr := json.Unmarshal(line, &c); jerr != nil {
				result = caseOutput{Applies: []operationOutput{}, Managers: map[string]managerOutput{}, Error: fmt.Sprintf("case is not JSON: %v", jerr)}
			} else {
				result = runCase(schemas, c)
			}
			if eerr := enc.Encode(result); eerr != nil {
				fmt.Fprintf(os.Stderr, "oracle: %v\n", eerr)
				os.Exit(2)
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "oracle: %v\n", err)
			os.Exit(2)
		}
	}
}

func isBlank(line []byte) bool {
	for _, b := range line {
		if b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			return false
		}
	}
	return true
}
