/** Names as each language spells them (SPEC §4.2): symbols' names and queries read as paths. */
import { describe, expect, test } from "bun:test";
import {
  bare,
  fileQualifiers,
  goMethod,
  implNamed,
  implSelfType,
  namesContainer,
  querySegments,
  spelled,
} from "../../../src/normalize/symbol-spelling.ts";

describe("symbols' names", () => {
  test("goMethod and implSelfType parse only what they recognise", () => {
    expect(goMethod("(*Decoder).Decode")).toEqual({ receiver: "Decoder", method: "Decode" });
    expect(goMethod("(Decoder).Decode")).toEqual({ receiver: "Decoder", method: "Decode" });
    expect(goMethod("(*List[T]).Push")).toEqual({ receiver: "List", method: "Push" });
    expect(goMethod("Decoder.Decode")).toBeUndefined();
    expect(goMethod("(a b).c")).toBeUndefined();
    expect(implSelfType("impl ParserI<'s, P>")).toBe("ParserI");
    expect(implSelfType("impl<T: Into<U>> From<T> for Vec<U>")).toBe("Vec");
    expect(implSelfType("impl Trait for &mut Thing")).toBe("Thing");
    expect(implSelfType("implement")).toBeUndefined();
    expect(implSelfType("impl [u8]")).toBeUndefined();
  });

  test("spelled: the word the text writes, the containers the name qualifies it with", () => {
    expect(spelled("(*List[T]).Push")).toEqual({
      word: "Push",
      qualifiers: ["List"],
      outOfLine: false,
    });
    expect(spelled("a::b::S::m")).toEqual({
      word: "m",
      qualifiers: ["a", "b", "S"],
      outOfLine: true,
    });
    expect(spelled("::f")).toEqual({ word: "f", qualifiers: [], outOfLine: false });
    expect(spelled("Map<a::b>::get")).toEqual({
      word: "get",
      qualifiers: ["Map<a::b>"],
      outOfLine: true,
    });
    // an impl's path and names that only look qualified stay whole
    const whole = (name: string) => ({ word: name, qualifiers: [], outOfLine: false });
    expect(spelled("impl Display for crate::Rect")).toEqual(whole("impl Display for crate::Rect"));
    expect(spelled("S::")).toEqual(whole("S::"));
    expect(spelled("a.b")).toEqual(whole("a.b"));
  });
});

describe("queries", () => {
  test("querySegments: dots and `::` outside brackets; an impl is one segment", () => {
    expect(querySegments("Box.size")).toEqual(["Box", "size"]);
    expect(querySegments("a::b::S::m")).toEqual(["a", "b", "S", "m"]);
    expect(querySegments("List[T].Len")).toEqual(["List[T]", "Len"]);
    expect(querySegments("Map<a.b>::get")).toEqual(["Map<a.b>", "get"]);
    expect(querySegments("(*List).Push")).toEqual(["List", "Push"]);
    expect(querySegments("impl Parse for Parser::parse")).toEqual([
      "impl Parse for Parser",
      "parse",
    ]);
    expect(querySegments("impl fmt::Display for crate::W.fmt")).toEqual([
      "impl fmt::Display for crate::W",
      "fmt",
    ]);
    expect(querySegments("impl<T> W<T>::get")).toEqual(["impl<T> W<T>", "get"]);
    expect(querySegments("size")).toEqual(["size"]);
    expect(querySegments("Box.")).toBeUndefined();
    expect(querySegments("::m")).toBeUndefined();
  });

  test("bare drops trailing generic arguments of an identifier only", () => {
    expect(bare("List[T]")).toBe("List");
    expect(bare("W<T, U>")).toBe("W");
    expect(bare("operator[]")).toBe("operator");
    expect(bare("a.b<T>")).toBe("a.b<T>");
    expect(bare("List")).toBe("List");
  });

  test("implNamed: as written, white space and the impl's own parameters aside", () => {
    expect(implNamed("impl Parser", "impl Parser")).toBe(true);
    expect(implNamed("impl Parser", "impl Parse for Parser")).toBe(false);
    expect(implNamed("impl Parse  for Parser", "impl Parse for Parser")).toBe(true);
    expect(implNamed("impl<T> W<T>", "impl W<T>")).toBe(true);
    expect(implNamed("impl<T: Clone> W< T >", "impl<T> W<T>")).toBe(true);
    // no generic arguments asked: any; some asked: those
    expect(implNamed("impl W", "impl W<T>")).toBe(true);
    expect(implNamed("impl From for W", "impl From<u8> for W<u8>")).toBe(true);
    expect(implNamed("impl From<u16> for W<u16>", "impl From<u8> for W<u8>")).toBe(false);
    expect(implNamed("Parser", "impl Parser")).toBe(false);
  });

  test("namesContainer: the name, bare, an impl by its type or its own spelling", () => {
    expect(namesContainer("List[T]", "List")).toBe(true);
    expect(namesContainer("Parser", "impl Parse for Parser")).toBe(true);
    expect(namesContainer("impl Parser", "impl Parse for Parser")).toBe(false);
    expect(namesContainer("Parse", "impl Parse for Parser")).toBe(false);
    expect(namesContainer("Box", "Boxes")).toBe(false);
  });

  test("fileQualifiers: the package clause, if the file has one", () => {
    expect(fileQualifiers("// Package lib\r\npackage lib\r\n")).toEqual(["lib"]);
    expect(fileQualifiers("package com.example.app;\n")).toEqual(["com.example.app"]);
    expect(fileQualifiers("import math\n# package x y\n")).toEqual([]);
  });
});
