// Type-aware "find references" for a Go checkout, from go/types (bench only, stdlib only).
//
//	go run ./bench/references/go CHECKOUT OUT.tsv
//
// Every package directory of the checkout is type-checked from source, with the files the default
// build context compiles (build constraints and GOOS/GOARCH file names honoured, as go list and
// gopls read a package): its non-test files (what
// importers get), then with its in-package tests, then its external `_test` package. Imports
// inside the checkout (through its go.mod files) are checked from source too; the standard
// library comes from the toolchain's importer; anything else is an empty package (its types are
// unknown, which costs nothing here: only objects declared in the checkout are reported). Errors
// are ignored: what type-checks is used. Info.Uses binds every identifier to its object; an object
// declared in the checkout gives a row
//
//	declaring file <TAB> name <TAB> kind <TAB> using file
//
// with the name Konstruct's symbols use: `F`, `T`, `T.M`. A method's object is the method go/types
// selected: a method promoted from an embedded type names the embedded type's method; a call
// through an interface names the interface's method.
package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type checker struct {
	root     string
	fset     *token.FileSet
	modules  map[string]string // module path -> directory
	parsed   map[string][]*ast.File
	checked  map[string]*types.Package
	std      types.Importer
	rows     map[string]bool
	checking map[string]bool
}

func (c *checker) dirOf(importPath string) (string, bool) {
	best := ""
	for module := range c.modules {
		if (importPath == module || strings.HasPrefix(importPath, module+"/")) && len(module) > len(best) {
			best = module
		}
	}
	if best == "" {
		return "", false
	}
	return filepath.Join(c.modules[best], strings.TrimPrefix(strings.TrimPrefix(importPath, best), "/")), true
}

func (c *checker) Import(path string) (*types.Package, error) {
	if dir, ok := c.dirOf(path); ok {
		if pkg, done := c.checked[dir]; done {
			return pkg, nil
		}
		if c.checking[dir] {
			return types.NewPackage(path, filepath.Base(dir)), nil
		}
		files := c.files(dir, false, "")
		if len(files) == 0 {
			return types.NewPackage(path, filepath.Base(dir)), nil
		}
		c.checking[dir] = true
		pkg := c.check(path, files)
		c.checking[dir] = false
		c.checked[dir] = pkg
		return pkg, nil
	}
	if pkg, err := c.std.Import(path); err == nil {
		return pkg, nil
	}
	name := path[strings.LastIndex(path, "/")+1:]
	pkg := types.NewPackage(path, name)
	pkg.MarkComplete()
	return pkg, nil
}

// files of a directory: non-test ones of the package most files declare; with tests, the
// in-package test files too; external (name != ""): the files of package `name`.
func (c *checker) files(dir string, tests bool, external string) []*ast.File {
	all := c.parsed[dir]
	counts := map[string]int{}
	for _, f := range all {
		if !strings.HasSuffix(c.fset.Position(f.Package).Filename, "_test.go") {
			counts[f.Name.Name]++
		}
	}
	main := ""
	for name, n := range counts {
		if n > counts[main] || (n == counts[main] && name < main) {
			main = name
		}
	}
	var out []*ast.File
	for _, f := range all {
		test := strings.HasSuffix(c.fset.Position(f.Package).Filename, "_test.go")
		switch {
		case external != "":
			if test && f.Name.Name == external {
				out = append(out, f)
			}
		case f.Name.Name == main && (!test || tests):
			out = append(out, f)
		}
	}
	return out
}

func (c *checker) check(path string, files []*ast.File) *types.Package {
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	config := types.Config{Importer: c, Error: func(error) {}}
	pkg, _ := config.Check(path, c.fset, files, info)
	for id, obj := range info.Uses {
		c.record(id, obj)
	}
	return pkg
}

func (c *checker) record(id *ast.Ident, obj types.Object) {
	if obj == nil || !obj.Pos().IsValid() || obj.Pkg() == nil {
		return
	}
	declared := c.fset.Position(obj.Pos()).Filename
	if !strings.HasPrefix(declared, c.root+string(os.PathSeparator)) {
		return
	}
	name, kind := obj.Name(), ""
	switch o := obj.(type) {
	case *types.Func:
		sig, _ := o.Type().(*types.Signature)
		if sig != nil && sig.Recv() != nil {
			recv := sig.Recv().Type()
			if p, ok := recv.(*types.Pointer); ok {
				recv = p.Elem()
			}
			named, ok := recv.(*types.Named)
			if !ok {
				return // a method of an unnamed interface type
			}
			name, kind = named.Obj().Name()+"."+name, "method"
		} else if o.Parent() == o.Pkg().Scope() {
			kind = "function"
		}
	case *types.TypeName:
		if o.Parent() == o.Pkg().Scope() {
			kind = "type"
		}
	case *types.Var:
		if !o.IsField() && o.Parent() == o.Pkg().Scope() {
			kind = "var"
		}
	case *types.Const:
		if o.Parent() == o.Pkg().Scope() {
			kind = "const"
		}
	}
	if kind == "" {
		return
	}
	using := c.fset.Position(id.Pos()).Filename
	c.rows[c.rel(declared)+"\t"+name+"\t"+kind+"\t"+c.rel(using)] = true
}

func (c *checker) rel(path string) string {
	rel, _ := filepath.Rel(c.root, path)
	return filepath.ToSlash(rel)
}

func main() {
	root, _ := filepath.Abs(os.Args[1])
	fset := token.NewFileSet() // one file set: an object's position names its file, the library's too
	c := &checker{root: root, fset: fset, modules: map[string]string{}, parsed: map[string][]*ast.File{},
		checked: map[string]*types.Package{}, std: importer.ForCompiler(fset, "source", nil),
		rows: map[string]bool{}, checking: map[string]bool{}}
	var dirs []string
	filepath.Walk(root, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		base := fi.Name()
		if fi.IsDir() && path != root && (strings.HasPrefix(base, ".") || base == "vendor" || base == "testdata") {
			return filepath.SkipDir
		}
		if !fi.IsDir() && base == "go.mod" {
			data, _ := os.ReadFile(path)
			for _, line := range strings.Split(string(data), "\n") {
				if fields := strings.Fields(line); len(fields) == 2 && fields[0] == "module" {
					c.modules[strings.Trim(fields[1], `"`)] = filepath.Dir(path)
				}
			}
		}
		// Only the files the default build compiles, as go list and gopls see a package: a file
		// under another build constraint (`//go:build nomsgpack`, `_windows.go`) is no part of it.
		if match, _ := build.Default.MatchFile(filepath.Dir(path), base); !fi.IsDir() && strings.HasSuffix(base, ".go") && match {
			file, err := parser.ParseFile(c.fset, path, nil, parser.SkipObjectResolution)
			if file != nil {
				dir := filepath.Dir(path)
				if c.parsed[dir] == nil {
					dirs = append(dirs, dir)
				}
				c.parsed[dir] = append(c.parsed[dir], file)
			}
			_ = err
		}
		return nil
	})
	for _, dir := range dirs {
		importPath := dir
		for module, mdir := range c.modules {
			if rel, err := filepath.Rel(mdir, dir); err == nil && !strings.HasPrefix(rel, "..") {
				importPath = filepath.ToSlash(filepath.Join(module, rel))
			}
		}
		c.Import(importPath) // the package importers get (records its uses once)
		c.check(importPath+" [test]", c.files(dir, true, ""))
		external := ""
		for _, f := range c.parsed[dir] {
			if strings.HasSuffix(f.Name.Name, "_test") {
				external = f.Name.Name
			}
		}
		if external != "" {
			c.check(importPath+"_test", c.files(dir, false, external))
		}
	}
	rows := make([]string, 0, len(c.rows))
	for row := range c.rows {
		rows = append(rows, row)
	}
	sort.Strings(rows)
	out, _ := os.Create(os.Args[2])
	writer := bufio.NewWriter(out)
	for _, row := range rows {
		fmt.Fprintln(writer, row)
	}
	writer.Flush()
	out.Close()
	fmt.Fprintf(os.Stderr, "%d packages, %d references\n", len(dirs), len(rows))
}
