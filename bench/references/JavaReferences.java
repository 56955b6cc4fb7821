// Type-aware "find references" for a Java source tree, from the compiler itself (bench only).
//
//   java bench/references/JavaReferences.java OUT.tsv [-cp JARS] FILE.java...
//
// javac parses and attributes every file (errors are ignored: what attributes is used); every
// identifier, member select, `new`, and method reference (`Foo::bar`) is mapped to the element
// javac bound it to. An element declared in one of the given files gives a row
//   declaring file <TAB> name in that file <TAB> kind <TAB> using file
// where the name is the one Konstruct's symbols use (`Outer.Inner`, `Gson.toJson`). A method's
// element is the declaration javac's overload resolution picked: an inherited method called on a
// subclass names the class that declares it; a method called through an interface names the
// interface's method, not an implementation's.
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import javax.lang.model.element.*;
import javax.tools.*;

public class JavaReferences {
    public static void main(String[] args) throws Exception {
        String out = args[0];
        List<String> options = new ArrayList<>(List.of("-proc:none", "-encoding", "UTF-8",
                // Attribute every file even when some do not compile (a missing test jar).
                "-XDshould-stop.ifError=FLOW"));
        List<String> files = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("-cp")) { options.add("-cp"); options.add(args[++i]); }
            else files.add(args[i]);
        }
        int[] errors = {0};
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager manager = compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        JavacTask task = (JavacTask) compiler.getTask(null, manager, d -> { if (d.getKind() == Diagnostic.Kind.ERROR) errors[0]++; }, options, null,
                manager.getJavaFileObjectsFromStrings(files));
        Iterable<? extends CompilationUnitTree> units = task.parse();
        task.analyze();
        Trees trees = Trees.instance(task);
        Set<String> rows = new TreeSet<>();
        for (CompilationUnitTree unit : units) {
            String using = Paths.get(unit.getSourceFile().toUri()).toString();
            String text;
            try { text = unit.getSourceFile().getCharContent(true).toString(); }
            catch (IOException e) { throw new UncheckedIOException(e); }
            SourcePositions positions = trees.getSourcePositions();
            new TreePathScanner<Void, Void>() {
                void record() {
                    Element element = trees.getElement(getCurrentPath());
                    if (element == null) return;
                    // Only names written in the source: javac synthesizes `value = ` in `@A("x")`.
                    Tree leaf = getCurrentPath().getLeaf();
                    // (and the inferred type of an implicit lambda parameter, `(src, context) -> ...`).
                    if (leaf instanceof IdentifierTree) {
                        long start = positions.getStartPosition(unit, leaf);
                        String name = ((IdentifierTree) leaf).getName().toString();
                        if (start < 0 || !text.startsWith(name, (int) start)) return;
                    }
                    if (leaf instanceof MemberSelectTree) {
                        long end = positions.getEndPosition(unit, leaf);
                        String name = ((MemberSelectTree) leaf).getIdentifier().toString();
                        if (end < 0 || end - name.length() < 0 || !text.startsWith(name, (int) end - name.length())) return;
                    }
                    String kind;
                    TypeElement owner;
                    String name = "";
                    switch (element.getKind()) {
                        case CLASS: case INTERFACE: case ENUM: case ANNOTATION_TYPE: case RECORD:
                            owner = (TypeElement) element; kind = "type"; name = ""; break;
                        case METHOD: kind = "method"; break;
                        case FIELD: case ENUM_CONSTANT: kind = "field"; break;
                        case CONSTRUCTOR: kind = "constructor"; break;
                        default: return;
                    }
                    if (!kind.equals("type")) {
                        if (!(element.getEnclosingElement() instanceof TypeElement)) return;
                        owner = (TypeElement) element.getEnclosingElement();
                        name = kind.equals("constructor") ? owner.getSimpleName().toString()
                                                          : element.getSimpleName().toString();
                    } else {
                        owner = (TypeElement) element;
                    }
                    TreePath declared = trees.getPath(owner);
                    if (declared == null) return;  // a library type
                    String file = Paths.get(declared.getCompilationUnit().getSourceFile().toUri()).toString();
                    String nested = nestedName(owner);
                    if (nested == null) return;  // a local or anonymous class
                    rows.add(file + "\t" + (name.isEmpty() ? nested : nested + "." + name) + "\t" + kind + "\t" + using);
                }
                @Override public Void visitIdentifier(IdentifierTree node, Void v) { record(); return super.visitIdentifier(node, v); }
                @Override public Void visitMemberSelect(MemberSelectTree node, Void v) { record(); return super.visitMemberSelect(node, v); }
                @Override public Void visitMemberReference(MemberReferenceTree node, Void v) { record(); return super.visitMemberReference(node, v); }
                @Override public Void visitNewClass(NewClassTree node, Void v) { record(); return super.visitNewClass(node, v); }
            }.scan(unit, null);
        }
        System.err.println(errors[0] + " compile errors (ignored), " + rows.size() + " references");
        try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(Paths.get(out)))) {
            for (String row : rows) writer.println(row);
        }
    }

    static String nestedName(TypeElement type) {
        StringBuilder name = new StringBuilder(type.getSimpleName());
        Element outer = type.getEnclosingElement();
        while (outer instanceof TypeElement) {
            if (((TypeElement) outer).getSimpleName().length() == 0) return null;
            name.insert(0, ((TypeElement) outer).getSimpleName() + ".");
            outer = outer.getEnclosingElement();
        }
        return type.getSimpleName().length() == 0 || outer.getKind() != ElementKind.PACKAGE ? null : name.toString();
    }
}
