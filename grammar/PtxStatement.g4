// PtxStatement.g4 - the grammar of one PTX statement.
//
// The hand-written scanner (lib/Parse/Scanner.cpp) splits a module into
// statements and hands this grammar only the ones that matter (directives,
// declarations, function headers and the instructions the checks read).
// Each entry rule parses exactly one statement and ends at EOF.
//
// Opcodes and dotted qualifiers are separate tokens: "cp.async.bulk" lexes as
// IDENT "cp" then MODIFIER ".async" then MODIFIER ".bulk", and a qualifier with
// sub-qualifiers (".shared::cluster", ".mbarrier::complete_tx::bytes") is one
// MODIFIER. Qualifiers parse as a sequence in any order: the spec tables, not
// the grammar, decide which sequences are valid.
grammar PtxStatement;

// ---- entry rules -----------------------------------------------------------

instructionStatement
    : guard? opcode=IDENT modifier* operandList? SEMI EOF
    ;

directiveStatement
    : VERSION version=FLOAT EOF                             # versionDirective
    | TARGET targetName (COMMA targetName)* EOF             # targetDirective
    | ADDRESS_SIZE size=INT EOF                             # addressSizeDirective
    ;

declarationStatement
    : declSpecifier+ declarator (COMMA declarator)* initializer? SEMI EOF
    ;

functionHeader
    : declSpecifier* kind=(ENTRY | FUNC) returnParams=paramList?
      name=IDENT paramList? functionAttribute* (SEMI)? EOF
    ;

// ---- instructions ----------------------------------------------------------

guard
    : AT BANG? IDENT
    ;

modifier
    : MODIFIER
    ;

operandList
    : operand (COMMA operand)*
    ;

operand
    : LBRACK addressBody RBRACK                             # addressOperand
    | LBRACE vectorElements? RBRACE                         # vectorOperand
    | LPAREN (operand (COMMA operand)*)? RPAREN             # tupleOperand
    | BANG IDENT                                            # negatedOperand
    | expr                                                  # exprOperand
    ;

// [base], [base+imm], [base+-imm], [tensorMap, {c0, c1}], [imm]
addressBody
    : expr (COMMA operand)*
    ;

vectorElements
    : operand (COMMA operand)*
    ;

// Constant expressions, flat rather than left-recursive: ANTLR's
// precedence-climbing rules cost several times more per operand, and PTX
// operands are almost always a single name or number. The AST builder
// applies C precedence when it evaluates one, and checks an address against
// the forms ptxas takes ([name], [name+constant], [constant]).
expr
    : unary (binaryOp unary)*
    ;

binaryOp
    : PLUS | MINUS | STAR | SLASH | PERCENT_OP | SHL | SHR | AMP | PIPE | CARET
    ;

unary
    : op=(MINUS | PLUS | TILDE | BANG) unary                 # prefixExpr
    | LPAREN expr RPAREN                                    # parenExpr
    | IDENT MODIFIER?                                       # nameExpr
    | INT                                                   # intExpr
    | FLOAT                                                 # floatExpr
    ;

// ---- directives and declarations -------------------------------------------

targetName
    : IDENT
    ;

declSpecifier
    : MODIFIER INT?          // ".shared", ".align 16", ".v4", ".b32", ".ptr"
    ;

declarator
    : IDENT (LT INT GT)? (LBRACK INT? RBRACK)*
    ;

initializer
    : EQ .*?
    ;

paramList
    : LPAREN (param (COMMA param)*)? RPAREN
    ;

param
    : declSpecifier+ declarator
    ;

functionAttribute
    : MODIFIER (INT (COMMA INT)*)?   // .maxntid 128, 1, 1  /  .noreturn
    ;

// ---- tokens ----------------------------------------------------------------

VERSION      : '.version' ;
TARGET       : '.target' ;
ADDRESS_SIZE : '.address_size' ;
ENTRY        : '.entry' ;
FUNC         : '.func' ;

// A dotted qualifier with optional ::sub-qualifiers. Digits may lead a word
// (".2d", ".1d") and ".L2::64B" mixes both.
MODIFIER     : '.' WORD ('::' WORD)* ;

FLOAT
    : '0' [fF] HEX8
    | '0' [dD] HEX16
    | DIGIT+ '.' DIGIT* EXPONENT?
    | DIGIT+ EXPONENT
    ;

INT
    : '0' [xX] HEXDIGIT+ 'U'?
    | '0' [bB] [01]+ 'U'?
    | DIGIT+ 'U'?
    ;

// PTX identifiers: [a-zA-Z][a-zA-Z0-9_$]* or [_$%][a-zA-Z0-9_$]+, plus the
// lone '_' sink. '%' starts registers and special registers.
IDENT        : [a-zA-Z_$%] [a-zA-Z0-9_$]* ;

AT           : '@' ;
BANG         : '!' ;
SEMI         : ';' ;
COMMA        : ',' ;
LBRACK       : '[' ;
RBRACK       : ']' ;
LBRACE       : '{' ;
RBRACE       : '}' ;
LPAREN       : '(' ;
RPAREN       : ')' ;
PLUS         : '+' ;
MINUS        : '-' ;
STAR         : '*' ;
SLASH        : '/' ;
PERCENT_OP   : '%%' ;
SHL          : '<<' ;
SHR          : '>>' ;
AMP          : '&' ;
PIPE         : '|' ;
CARET        : '^' ;
TILDE        : '~' ;
LT           : '<' ;
GT           : '>' ;
EQ           : '=' ;
COLON        : ':' ;
STRING       : '"' (~["\\\r\n] | '\\' .)* '"' ;

LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n]+ -> skip ;
// Anything else is one error token, so the lexer never fails silently.
OTHER         : . ;

fragment WORD     : [a-zA-Z0-9_$]+ ;
fragment DIGIT    : [0-9] ;
fragment HEXDIGIT : [0-9a-fA-F] ;
fragment HEX8     : HEXDIGIT HEXDIGIT HEXDIGIT HEXDIGIT HEXDIGIT HEXDIGIT HEXDIGIT HEXDIGIT ;
fragment HEX16    : HEX8 HEX8 ;
fragment EXPONENT : [eE] [+-]? DIGIT+ ;
