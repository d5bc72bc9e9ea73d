<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ActivityModel</name>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="49"/>
        <source>%n min ago</source>
        <translation>
            <numerusform>%n min ago</numerusform>
            <numerusform>%n min ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="53"/>
        <source>%n h ago</source>
        <translation>
            <numerusform>%n h ago</numerusform>
            <numerusform>%n h ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="121"/>
        <source>added %n observations to {name}</source>
        <translation>
            <numerusform>added %n observation to {name}</numerusform>
            <numerusform>added %n observations to {name}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="122"/>
        <source>removed %n observations from {name}</source>
        <translation>
            <numerusform>removed %n observation from {name}</numerusform>
            <numerusform>removed %n observations from {name}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="124"/>
        <source>deleted {name} ({type}, %n observations)</source>
        <translation>
            <numerusform>deleted {name} ({type}, %n observation)</numerusform>
            <numerusform>deleted {name} ({type}, %n observations)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="159"/>
        <source>saved {name} (%n changes)</source>
        <translation>
            <numerusform>saved {name} (%n change)</numerusform>
            <numerusform>saved {name} (%n changes)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="157"/>
        <source>let the confidence of %n insights fade with time</source>
        <translation>
            <numerusform>let the confidence of %n insight fade with time</numerusform>
            <numerusform>let the confidence of %n insights fade with time</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message numerus="yes">
        <location filename="../../desktop/dialogs/import_dialog.py" line="190"/>
        <source>Reading %n file(s); nothing is written yet.</source>
        <translation>
            <numerusform>Reading %n file; nothing is written yet.</numerusform>
            <numerusform>Reading %n files; nothing is written yet.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>InsightPreview</name>
    <message numerus="yes">
        <location filename="../../desktop/insights/preview.py" line="78"/>
        <source>remove %n repeated fact(s) from “{name}”:</source>
        <translation>
            <numerusform>remove %n repeated fact from “{name}”:</numerusform>
            <numerusform>remove %n repeated facts from “{name}”:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/preview.py" line="87"/>
        <source>add %n fact(s):</source>
        <translation>
            <numerusform>add %n fact:</numerusform>
            <numerusform>add %n facts:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/preview.py" line="90"/>
        <source>drop %n repeat(s):</source>
        <translation>
            <numerusform>drop %n repeat:</numerusform>
            <numerusform>drop %n repeats:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/preview.py" line="94"/>
        <source>rewire %n relation(s):</source>
        <translation>
            <numerusform>rewire %n relation:</numerusform>
            <numerusform>rewire %n relations:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/preview.py" line="99"/>
        <source>drop %n relation(s) it would repeat or that would loop:</source>
        <translation>
            <numerusform>drop %n relation it would repeat or that would loop:</numerusform>
            <numerusform>drop %n relations it would repeat or that would loop:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>InsightWords</name>
    <message numerus="yes">
        <location filename="../../desktop/insights/words.py" line="132"/>
        <source>%n more solved problem(s) share its concepts.</source>
        <translation>
            <numerusform>%n more solved problem shares its concepts.</numerusform>
            <numerusform>%n more solved problems share its concepts.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/words.py" line="136"/>
        <source>&quot;{technology}&quot; is used by %n entities: {users}. Consider sharing knowledge, fixes or materials between them.</source>
        <translation>
            <numerusform>&quot;{technology}&quot; is used by %n entity: {users}. Consider sharing knowledge, fixes or materials with it.</numerusform>
            <numerusform>&quot;{technology}&quot; is used by %n entities: {users}. Consider sharing knowledge, fixes or materials between them.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/words.py" line="141"/>
        <source>The concept &quot;{concept}&quot; connects %n entities: {members}. This cluster may reveal a pattern worth exploring.</source>
        <translation>
            <numerusform>The concept &quot;{concept}&quot; connects %n entity: {members}. This cluster may reveal a pattern worth exploring.</numerusform>
            <numerusform>The concept &quot;{concept}&quot; connects %n entities: {members}. This cluster may reveal a pattern worth exploring.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/words.py" line="157"/>
        <source>The technique &quot;{technique}&quot; (used in {homes}) shares %n concept(s) with work in &quot;{domain}&quot;, where it is not used yet: {concepts}. It may apply there.</source>
        <translation>
            <numerusform>The technique &quot;{technique}&quot; (used in {homes}) shares %n concept with work in &quot;{domain}&quot;, where it is not used yet: {concepts}. It may apply there.</numerusform>
            <numerusform>The technique &quot;{technique}&quot; (used in {homes}) shares %n concepts with work in &quot;{domain}&quot;, where it is not used yet: {concepts}. It may apply there.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/words.py" line="176"/>
        <source>(%n more active entities are linked to it.)</source>
        <translation>
            <numerusform>(%n more active entity is linked to it.)</numerusform>
            <numerusform>(%n more active entities are linked to it.)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/words.py" line="191"/>
        <source>%n entities have fewer than 2 real connections: {listed}. Linking them (INSTANCE_OF, BELONGS_TO, IN_DOMAIN …) makes them easier to find and reason about.</source>
        <translation>
            <numerusform>%n entity has fewer than 2 real connections: {listed}. Linking it (INSTANCE_OF, BELONGS_TO, IN_DOMAIN …) makes it easier to find and reason about.</numerusform>
            <numerusform>%n entities have fewer than 2 real connections: {listed}. Linking them (INSTANCE_OF, BELONGS_TO, IN_DOMAIN …) makes them easier to find and reason about.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>InsightsPane</name>
    <message numerus="yes">
        <location filename="../../desktop/insights/pane.py" line="394"/>
        <source>%Ln insights to review</source>
        <translation>
            <numerusform>%Ln insight to review</numerusform>
            <numerusform>%Ln insights to review</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <location filename="../../desktop/main_window.py" line="361"/>
        <source>%Ln entities</source>
        <translation>
            <numerusform>%Ln entity</numerusform>
            <numerusform>%Ln entities</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message numerus="yes">
        <location filename="../../desktop/tray.py" line="136"/>
        <source>%n assistant(s) connected</source>
        <translation>
            <numerusform>%n assistant connected</numerusform>
            <numerusform>%n assistants connected</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/tray.py" line="140"/>
        <source>%n insight(s) to review</source>
        <translation>
            <numerusform>%n insight to review</numerusform>
            <numerusform>%n insights to review</numerusform>
        </translation>
    </message>
</context>
</TS>
