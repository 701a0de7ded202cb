package example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.nodereporter.NodeReporterChart;
import io.github.nodereporter.NodeRequirement;
import io.github.nodereporter.NodeSelectorRequirement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.cdk8s.AppProps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The constructs from Java: the same YAML as the TypeScript app, and the library's own errors. */
class AppTest {
    private static Map<String, String> manifests(Path folder) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.list(folder)) {
            for (Path p : paths.filter(p -> p.getFileName().toString().endsWith(".k8s.yaml")).toList()) {
                files.put(p.getFileName().toString(), new String(Files.readAllBytes(p), java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        return files;
    }

    @Test
    void theReporterSynthesizesTheCommittedDistByteForByte(@TempDir Path out) throws IOException {
        // GIVEN main.ts's app, written in Java
        // WHEN it synthesizes
        App.reporterApp(out.toString()).synth();
        // THEN every file is the committed dist/'s, and there is no other
        Map<String, String> want = manifests(Path.of(System.getenv("NODE_REPORTER_DIST")));
        assertFalse(want.isEmpty());
        assertEquals(want, manifests(out));
    }

    @Test
    void theAgentSynthesizesWhatTheTypeScriptAppDoes(@TempDir Path out) throws IOException {
        // GIVEN the realistic agent (host network, read-only host path, privileged with its reason, tolerations)
        // WHEN it synthesizes
        App.agentApp(out.toString()).synth();
        // THEN the bytes are languages/typescript/agent.ts's
        assertArrayEquals(Files.readAllBytes(Path.of(System.getenv("NODE_REPORTER_TS_AGENT"))), Files.readAllBytes(out.resolve("agent.k8s.yaml")));
    }

    @Test
    void aBadPropRaisesTheLibrarysMessageNamingIt(@TempDir Path out) {
        // GIVEN an app
        org.cdk8s.App app = new org.cdk8s.App(AppProps.builder().outdir(out.toString()).build());
        // WHEN a chart is given a version with a space
        RuntimeException error = assertThrows(RuntimeException.class,
            () -> NodeReporterChart.Builder.create(app, "bad").version("not a version!").build());
        // THEN the error is the library's, naming the prop, the value and what is allowed
        assertTrue(error.getMessage().contains("'version' must be a plain token"), error.getMessage());
        assertTrue(error.getMessage().contains("\"not a version!\""), error.getMessage());
    }

    @Test
    void inIsCalledAsJavaNamesIt() {
        // GIVEN NodeRequirement.in, a reserved word in C# and Python (not in Java)
        // WHEN Java calls it
        NodeSelectorRequirement r = NodeRequirement.in("node-role", "worker");
        // THEN it is the requirement TypeScript's NodeRequirement.in returns
        assertEquals(List.of("node-role", "In", List.of("worker")), List.of(r.getKey(), r.getOperator(), r.getValues()));
    }
}
