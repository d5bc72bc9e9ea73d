<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ActivityModel</name>
    <message numerus="yes">
        <location filename="../../desktop/models/activity.py" line="45"/>
        <source>%n min ago</source>
        <translation>
            <numerusform>%n min ago</numerusform>
            <numerusform>%n min ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/models/activity.py" line="49"/>
        <source>%n h ago</source>
        <translation>
            <numerusform>%n h ago</numerusform>
            <numerusform>%n h ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/models/activity.py" line="97"/>
        <source>added %n observations to {name}</source>
        <translation>
            <numerusform>added %n observation to {name}</numerusform>
            <numerusform>added %n observations to {name}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/models/activity.py" line="102"/>
        <source>removed %n observations from {name}</source>
        <translation>
            <numerusform>removed %n observation from {name}</numerusform>
            <numerusform>removed %n observations from {name}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/models/activity.py" line="109"/>
        <source>deleted {name} ({type}, %n observations)</source>
        <translation>
            <numerusform>deleted {name} ({type}, %n observation)</numerusform>
            <numerusform>deleted {name} ({type}, %n observations)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/models/activity.py" line="136"/>
        <source>saved {name} (%n changes)</source>
        <translation>
            <numerusform>saved {name} (%n change)</numerusform>
            <numerusform>saved {name} (%n changes)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/models/activity.py" line="169"/>
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
        <location filename="../../desktop/dialogs/import_dialog.py" line="188"/>
        <source>Reading %n file(s); nothing is written yet.</source>
        <translation>
            <numerusform>Reading %n file; nothing is written yet.</numerusform>
            <numerusform>Reading %n files; nothing is written yet.</numerusform>
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
