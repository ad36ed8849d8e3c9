package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.perfab.testing.Docs;

/**
 * The README is for the first hour: the two commands, then a Go user's first A/B of their own
 * repository on the first screen; the reference is in docs/, every page linked, every link whole.
 */
class DocsTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]*)(#[^)\\s]*)?\\)");

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Docs.ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(Docs.ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
    private static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
    }

    private static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        boolean fence = false;
        for (String line : Files.readAllLines(page)) {
            fence ^= line.startsWith("```");
            if (!fence && line.startsWith("#")) {
                anchors.add(anchor(line.replaceFirst("^#+\\s*", "")));
            }
        }
        return anchors;
    }

    @Test
    void everyLinkLeadsToAPageAndAHeadingThatExist() throws IOException {
        int links = 0;
        for (Path page : pages()) {
            Matcher m = LINK.matcher(Files.readString(page));
            while (m.find()) {
                if (m.group(1).startsWith("http")) {
                    continue;
                }
                Path target = m.group(1).isEmpty()
                        ? page
                        : page.getParent().resolve(m.group(1)).normalize();
                assertTrue(Files.exists(target), page.getFileName() + " links to " + m.group(1) + ", which is missing");
                if (m.group(2) != null) {
                    assertTrue(
                            anchors(target).contains(m.group(2).substring(1)),
                            page.getFileName() + " links to " + m.group(0) + ", a heading " + target.getFileName()
                                    + " lacks: " + anchors(target));
                }
                links++;
            }
        }
        assertTrue(links >= 10, "the pages link to each other: " + links);
    }

    @Test
    void everyWorkloadSnippetOfTheDocsIsAWorkloadPerfabReads() throws IOException {
        Matcher m = Pattern.compile("```yaml\n(.*?)```", Pattern.DOTALL)
                .matcher(Files.readString(Docs.ROOT.resolve("docs/workloads.md")));
        int snippets = 0;
        while (m.find()) {
            String yaml = m.group(1);
            if (!yaml.contains("harness:") || yaml.startsWith("# workloads/recipes/")) {
                continue; // a recipe is checked against its file below
            }
            String whole = yaml.contains("\nname:") || yaml.startsWith("name:") ? yaml : "name: snippet\n" + yaml;
            org.perfab.workload.WorkloadLoader.parse(whole, "docs/workloads.md snippet " + ++snippets);
        }
        assertTrue(snippets >= 4, "the file's example, the counted ones: " + snippets);
    }

    @Test
    void everyRecipeIsAValidWorkloadAndShownAsItIs() throws IOException {
        List<Path> recipes;
        try (Stream<Path> all = Files.list(Docs.ROOT.resolve("workloads/recipes"))) {
            recipes = all.sorted().toList();
        }
        assertTrue(recipes.size() >= 7, "the recipes: " + recipes);
        String docs = Docs.text();
        for (Path recipe : recipes) {
            String name = recipe.getFileName().toString();
            String text = Files.readString(recipe);
            org.perfab.workload.WorkloadLoader.parse(text, name);
            assertTrue(
                    docs.contains("```yaml\n# workloads/recipes/" + name + "\n" + text + "```"),
                    "the documentation shows " + name + " as it is");
        }
    }

    @Test
    void theReadmeLinksEveryPageAndStaysShort() throws IOException {
        String readme = Files.readString(Docs.ROOT.resolve("README.md"));
        for (Path page : pages().subList(1, pages().size())) {
            assertTrue(readme.contains("](docs/" + page.getFileName() + ")"), "the README links " + page.getFileName());
        }
        assertTrue(
                readme.lines().count() < 250,
                "the reference lives in docs/: " + readme.lines().count() + " lines");
    }

    @Test
    void theFirstScreenTakesAGoUserToTheirOwnFirstAB() throws IOException {
        List<String> lines = Files.readAllLines(Docs.ROOT.resolve("README.md"));
        assertEquals(
                "scripts/perfab demo     # run the embedded default: a real A/B of a small project with a"
                        + " known regression",
                lines.get(3));
        assertEquals("mvn -B verify           # run the whole test suite", lines.get(4));
        String first = String.join("\n", lines.subList(0, 40));
        assertTrue(first.contains("## Your repository's first A/B"), first);
        assertTrue(first.contains("cp ~/perfab/workloads/recipes/go.yaml perfab.yaml"), first);
        assertTrue(first.contains("~/perfab/scripts/perfab ab --head WORKTREE"), first);
        assertTrue(first.contains("The base is the repository's default branch"), first);
        assertTrue(Files.isRegularFile(Docs.ROOT.resolve("workloads/recipes/go.yaml")));
        assertTrue(Files.isExecutable(Docs.ROOT.resolve("scripts/perfab")));
        // Every recipe the README's table names exists.
        Matcher recipe = Pattern.compile("\\| `([a-z-]+\\.yaml)` \\|").matcher(String.join("\n", lines));
        int recipes = 0;
        while (recipe.find()) {
            assertTrue(
                    Files.isRegularFile(Docs.ROOT.resolve("workloads/recipes").resolve(recipe.group(1))),
                    recipe.group(1));
            recipes++;
        }
        try (Stream<Path> all = Files.list(Docs.ROOT.resolve("workloads/recipes"))) {
            assertEquals(all.count(), recipes, "the README's table names every recipe");
        }
    }
}
