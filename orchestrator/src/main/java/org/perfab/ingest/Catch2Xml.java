package org.perfab.ingest;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Catch2's XML reporter ({@code -r xml}, Catch2 2 and 3): every {@code <BenchmarkResults name=...>}
 * is one reading of cell {@code TESTCASE/NAME}, metric {@code time} in {@code ns}, its
 * {@code <mean value=...>}. Several runs written one after the other into one file (several
 * {@code <?xml ...?>} documents) are several readings each. Catch2's JSON reporter leaves
 * benchmarks out, so XML is the format to ask it for.
 *
 * <p>The file is a trust boundary: no document type declaration is allowed, so no entity is
 * expanded and nothing outside the file is read.
 */
final class Catch2Xml extends ToolFormat {
    @Override
    public String id() {
        return "catch2";
    }

    @Override
    public boolean recognises(String head) {
        return head.stripLeading().startsWith("<")
                && (head.contains("<Catch ") || head.contains("<Catch>") || head.contains("<Catch2TestRun"))
                && head.contains("<BenchmarkResults");
    }

    @Override
    public List<Reading> readings(Path file) {
        String text = BadInputException.read(file);
        DocumentBuilder parser = parser();
        List<Reading> readings = new ArrayList<>();
        int start = 0;
        int line = 1;
        while (start < text.length()) {
            int next = text.indexOf("<?xml", start + 1);
            int end = next < 0 ? text.length() : next;
            String doc = text.substring(start, end);
            if (!doc.isBlank()) {
                read(file, doc, line, parser, readings);
            }
            line += (int) doc.chars().filter(c -> c == '\n').count();
            start = end;
        }
        if (readings.isEmpty()) {
            throw bad(file, "", "no <BenchmarkResults> (Catch2 writes them with -r xml when benchmarks run)");
        }
        return readings;
    }

    private static void read(Path file, String doc, int firstLine, DocumentBuilder parser, List<Reading> readings) {
        Document d;
        try {
            d = parser.parse(new InputSource(new StringReader(doc)));
        } catch (SAXParseException e) {
            throw bad(
                    file,
                    (firstLine + Math.max(0, e.getLineNumber() - 1)) + ":" + e.getColumnNumber(),
                    "malformed XML: " + e.getMessage());
        } catch (SAXException | IOException e) {
            throw bad(file, Integer.toString(firstLine), "malformed XML: " + e.getMessage());
        }
        NodeList results = d.getElementsByTagName("BenchmarkResults");
        for (int i = 0; i < results.getLength(); i++) {
            Element b = (Element) results.item(i);
            String name = b.getAttribute("name");
            String testCase = enclosing(b, "TestCase");
            String where = "BenchmarkResults '" + name + "' of the document at line " + firstLine;
            Element mean = child(b, "mean");
            if (mean == null) {
                throw bad(file, where, "it has no <mean>");
            }
            double value;
            try {
                value = Double.parseDouble(mean.getAttribute("value"));
            } catch (NumberFormatException e) {
                throw bad(file, where, "<mean value='" + mean.getAttribute("value") + "'> is not a number");
            }
            if (!Double.isFinite(value)) {
                throw bad(file, where, "<mean value='" + mean.getAttribute("value") + "'> is not finite");
            }
            Cell cell = cell(file, where, testCase.isEmpty() ? name : testCase + "/" + name, "time", "ns");
            readings.add(new Reading(cell, value, file, firstLine, 1));
        }
    }

    private static String enclosing(Node n, String tag) {
        for (Node p = n.getParentNode(); p != null; p = p.getParentNode()) {
            if (p instanceof Element e && e.getTagName().equals(tag)) {
                return e.getAttribute("name");
            }
        }
        return "";
    }

    private static Element child(Element e, String tag) {
        for (Node c = e.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c instanceof Element x && x.getTagName().equals(tag)) {
                return x;
            }
        }
        return null;
    }

    private static DocumentBuilder parser() {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            return b;
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("no XML parser", e);
        }
    }
}
