; Everything extraction needs from a Python file, in one pass over the tree (one query walks the
; tree once; three separate queries cost nearly three walks). python.py reads the captures.

; Definitions. Scopes (Class.method, local or not) are worked out from byte ranges in python.py.
(class_definition name: (identifier)) @definition.class
(function_definition name: (identifier)) @definition.function
(type_alias_statement left: (type (identifier))) @definition.type
(expression_statement (assignment left: (identifier))) @definition.variable

; Every import statement, at any depth: inside functions and `if TYPE_CHECKING:` blocks too.
(import_statement) @import
(import_from_statement) @from

; Identifier uses. `@name` is every identifier; `@member`, `@keyword` and `@imported` mark
; identifiers that are not a use of a binding (a member after a dot, a keyword-argument name, an
; import's own words), which python.py subtracts. `@chain`: attribute expressions, kept when they
; are a plain dotted path such as `os.path.join`.
(identifier) @name
(attribute attribute: (identifier) @member)
(keyword_argument name: (identifier) @keyword)
(dotted_name (identifier) @imported)
(aliased_import alias: (identifier) @imported)
(attribute) @chain
